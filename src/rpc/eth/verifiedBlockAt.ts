import type { Engine } from '../../exec/createEngine.js'
import { type VerifiedBlock, fetchVerifiedBlock } from '../../exec/fetchVerifiedBlock.js'
import { BlockNotFoundError } from '../../errors/state.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import { ParamError } from '../params.js'
import { parseBlockNumberOrHashStrict } from '../debug/rawBlockHeader.js'
import { parseUint64 } from '../parsers.js'

/**
 * The block a selector names, every part verified (fetchVerifiedBlock); null when the upstream does
 * not know it — geth's answer for a block that is not there.
 */
export async function verifiedBlockAt(engine: Engine, selector: BlockSelector): Promise<VerifiedBlock | null> {
  try {
    return await fetchVerifiedBlock(engine, await engine.headers.resolve(selector))
  } catch (err) {
    if (err instanceof BlockNotFoundError) return null
    throw err
  }
}

/** geth's rpc.BlockNumber: a tag or a 0x-prefixed number (no hash, no EIP-1898 object). */
export function parseBlockNumberOnly(raw: unknown): BlockSelector {
  if (typeof raw === 'object' && raw !== null)
    throw new ParamError('json: cannot unmarshal object into Go value of type string')
  if (typeof raw === 'string' && raw.length === 66) throw new ParamError('hex number > 64 bits')
  return parseBlockNumberOrHashStrict(raw)
}

/** A hexutil.Uint index (a transaction's or an uncle's in its block). */
export function parseIndex(raw: unknown): number {
  const value = parseUint64(raw)
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value)
}
