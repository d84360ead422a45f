import { ParamError } from './params.js'
import { describe, parseHash, parseObject } from './parsers.js'
import type { BlockSelector, BlockTag } from '../types/blockSelector.js'

const TAGS = new Set<string>(['latest', 'earliest', 'pending', 'safe', 'finalized'])
const MAX_INT64 = 2n ** 63n - 1n

/** A block number or tag only (Go's rpc.BlockNumber): no hash, no object. */
export function parseBlockNumber(raw: unknown): BlockSelector {
  if (typeof raw === 'number') {
    // A bare JSON number arrives as a double: 2^63 and above are refused with the reference's words;
    // below that, beyond 2^53, the nearest double is taken (no chain is that long; it is not found).
    if (Number.isInteger(raw) && raw >= 2 ** 63) throw new ParamError('block number larger than int64')
    if (!Number.isInteger(raw) || raw < 0)
      throw new ParamError(`invalid block number ${raw}: expected a non-negative integer`)
    return { kind: 'number', number: BigInt(raw) }
  }
  if (typeof raw !== 'string') throw new ParamError(`expected a block number, tag or hash, got ${describe(raw)}`)
  if (TAGS.has(raw)) return { kind: 'tag', tag: raw as BlockTag }
  let value: bigint
  if (/^0x[0-9a-fA-F]+$/.test(raw)) value = BigInt(raw)
  else if (/^[0-9]+$/.test(raw)) value = BigInt(raw)
  else throw new ParamError(`expected a block number, tag or hash, got ${describe(raw)}`)
  if (value > MAX_INT64) throw new ParamError('block number larger than int64')
  return { kind: 'number', number: value }
}

/**
 * An EIP-1898 block parameter as geth and Erigon take it: a tag, a hex or decimal number (string or
 * bare JSON number), a 32-byte hash, or `{ blockNumber }` / `{ blockHash, requireCanonical? }`.
 */
export function parseBlockParameter(raw: unknown): BlockSelector {
  if (typeof raw === 'string' && raw.length === 66) {
    return { kind: 'hash', hash: parseHash(raw), requireCanonical: false }
  }
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const obj = parseObject(raw, 'a block')
    if (obj.blockHash !== undefined && obj.blockNumber !== undefined) {
      throw new ParamError('cannot specify both BlockHash and BlockNumber, choose one or the other')
    }
    if (obj.blockHash !== undefined) {
      const rc = obj.requireCanonical
      if (rc !== undefined && typeof rc !== 'boolean') throw new ParamError('requireCanonical must be a boolean')
      return { kind: 'hash', hash: parseHash(obj.blockHash), requireCanonical: rc === true }
    }
    if (obj.blockNumber !== undefined) return parseBlockNumber(obj.blockNumber)
    throw new ParamError('expected blockNumber or blockHash')
  }
  return parseBlockNumber(raw)
}

/**
 * A block parameter held in a member of an object argument (trace_filter's fromBlock and toBlock,
 * debug_traceCallMany's blockNumber): parsed with the request's other arguments, so that a bad one is
 * -32602 like any argument, its message naming the member (`field "fromBlock": block number larger
 * than int64`).
 */
export function parseBlockField(name: string, raw: unknown): BlockSelector {
  try {
    return parseBlockParameter(raw)
  } catch (err) {
    if (err instanceof ParamError) throw new ParamError(`field "${name}": ${err.message}`)
    throw err
  }
}
