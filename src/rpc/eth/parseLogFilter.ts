import type { BlockSelector } from '../../types/blockSelector.js'
import type { Hex } from '../../types/hex.js'
import { parseBlockField } from '../parseBlockParameter.js'
import { ParamError } from '../params.js'
import { describe, parseHash, parseObject } from '../parsers.js'

/** geth's maxTopics (LOG0…LOG4) and maxSubTopics (alternatives at one position). */
const MAX_TOPICS = 4
const MAX_SUB_TOPICS = 1000

/** eth_getLogs' filter, parsed: a block hash, or a range (a missing end is `latest`). */
export type LogFilter = {
  blockHash: Hex | undefined
  fromBlock: BlockSelector | undefined
  toBlock: BlockSelector | undefined
  /** Lowercased; empty matches any address. */
  addresses: Hex[]
  /** Per position, the topics any of which matches there; an empty list matches anything. */
  topics: Hex[][]
}

/** A 20-byte address or 32-byte topic the way geth's filter decodes it (hexutil.Decode, then a length check). */
function fixed(raw: string, bytes: number, what: string): Hex {
  if (!/^0[xX][0-9a-fA-F]*$/.test(raw)) {
    if (!/^0[xX]/.test(raw)) throw new ParamError('hex string without 0x prefix')
    throw new ParamError('invalid hex string')
  }
  if (raw.length % 2 !== 0) throw new ParamError('hex string of odd length')
  const length = (raw.length - 2) / 2
  if (length !== bytes)
    throw new ParamError(`hex has invalid length ${length} after decoding; expected ${bytes} for ${what}`)
  return raw.toLowerCase() as Hex
}

function parseAddresses(raw: unknown): Hex[] {
  if (raw === undefined || raw === null) return []
  if (typeof raw === 'string') {
    try {
      return [fixed(raw, 20, 'address')]
    } catch (err) {
      throw new ParamError(`invalid address: ${(err as Error).message}`)
    }
  }
  if (!Array.isArray(raw)) throw new ParamError('invalid addresses in query')
  return raw.map((a, i) => {
    if (typeof a !== 'string') throw new ParamError(`non-string address at index ${i}`)
    try {
      return fixed(a, 20, 'address')
    } catch (err) {
      throw new ParamError(`invalid address at index ${i}: ${(err as Error).message}`)
    }
  })
}

function parseTopics(raw: unknown): Hex[][] {
  if (raw === undefined || raw === null) return []
  if (!Array.isArray(raw)) throw new ParamError(`json: cannot unmarshal ${describe(raw)} into topics`)
  if (raw.length > MAX_TOPICS) throw new ParamError('exceed max topics')
  return raw.map((position) => {
    if (position === null) return []
    if (typeof position === 'string') return [fixed(position, 32, 'topic')]
    if (!Array.isArray(position)) throw new ParamError('invalid topic(s)')
    if (position.length > MAX_SUB_TOPICS) throw new ParamError('exceed max topics')
    const alternatives: Hex[] = []
    for (const t of position) {
      // A null among the alternatives makes the position match anything (geth).
      if (t === null) return []
      if (typeof t !== 'string') throw new ParamError('invalid topic(s)')
      alternatives.push(fixed(t, 32, 'topic'))
    }
    return alternatives
  })
}

/**
 * eth_getLogs' filter object with geth's rules (FilterCriteria.UnmarshalJSON): `blockHash` excludes
 * `fromBlock`/`toBlock`, `address` is one address or a list, `topics` holds per position null (any),
 * a topic, or a list of alternatives; at most 4 positions.
 */
export function parseLogFilter(raw: unknown): LogFilter {
  const o = parseObject(raw, 'a filter')
  const present = (v: unknown) => v !== undefined && v !== null
  let blockHash: Hex | undefined
  if (present(o.blockHash)) {
    if (present(o.fromBlock) || present(o.toBlock))
      throw new ParamError('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other')
    blockHash = parseHash(o.blockHash)
  }
  return {
    blockHash,
    fromBlock: present(o.fromBlock) ? parseBlockField('fromBlock', o.fromBlock) : undefined,
    toBlock: present(o.toBlock) ? parseBlockField('toBlock', o.toBlock) : undefined,
    addresses: parseAddresses(o.address),
    topics: parseTopics(o.topics),
  }
}
