import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { BlockNotFoundError } from '../../errors/state.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import { ParamError } from '../params.js'

const TAGS = ['latest', 'earliest', 'pending', 'safe', 'finalized']

/** geth's rpc.BlockNumberOrHash: a tag, a 0x-prefixed hex number, a hash or an EIP-1898 object. */
export function parseBlockNumberOrHashStrict(raw: unknown): BlockSelector {
  if (typeof raw === 'string' && !raw.startsWith('0x') && !TAGS.includes(raw))
    throw new ParamError('hex string without 0x prefix')
  return parseBlockParameter(raw)
}

export const where = (selector: BlockSelector) =>
  selector.kind === 'hash' ? selector.hash : selector.kind === 'number' ? `${selector.number}` : selector.tag

export async function rawBlockHeader(
  engine: Engine,
  selector: BlockSelector,
  what: 'header' | 'block',
): Promise<VerifiedHeader> {
  try {
    return await engine.headers.resolve(selector)
  } catch (err) {
    if (err instanceof BlockNotFoundError) throw new ServerRpcError(`${what} #${where(selector)} not found`)
    throw err
  }
}
