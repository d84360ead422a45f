import { ParamError } from './params.js'
import { describe, parseHash, parseObject } from './parsers.js'

export type BlockTag = 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized'

/** Which block a request is about, before it is resolved to one verified header. */
export type BlockSelector =
  | { kind: 'tag'; tag: BlockTag }
  | { kind: 'number'; number: bigint }
  | { kind: 'hash'; hash: `0x${string}`; requireCanonical: boolean }

const TAGS = new Set<string>(['latest', 'earliest', 'pending', 'safe', 'finalized'])
const MAX_INT64 = 2n ** 63n - 1n

function parseBlockNumber(raw: unknown): BlockSelector {
  if (typeof raw === 'number') {
    if (!Number.isSafeInteger(raw) || raw < 0) throw new ParamError(`invalid block number ${raw}`)
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

export function formatBlockSelector(block: BlockSelector): string {
  if (block.kind === 'tag') return block.tag
  if (block.kind === 'number') return `0x${block.number.toString(16)}`
  return block.hash
}
