import type { BlockSelector } from '../../types/blockSelector.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { ParamError } from '../params.js'

/**
 * The reference daemon's rpc.BlockNumber (not BlockNumberOrHash): a tag, a hex or decimal number, as a
 * string or a bare JSON number — no hash, no EIP-1898 object.
 */
export function parseOtsBlockNumber(raw: unknown): BlockSelector {
  if (typeof raw === 'object' && raw !== null)
    throw new ParamError(
      `json: cannot unmarshal ${Array.isArray(raw) ? 'array' : 'object'} into Go value of type string`,
    )
  if (typeof raw === 'string' && raw.length === 66) throw new ParamError('hex number > 64 bits')
  return parseBlockParameter(raw)
}
