import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import { InvalidParamsRpcError } from '../../errors/rpc.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import type { LogFilter } from '../eth/parseLogFilter.js'
import { headerByHash } from './blockReceipts.js'

/** The reference's values of the tags it refuses in a log range (rpc.BlockNumber: pending −2, safe −3, finalized −4). */
const REFUSED_TAGS: Readonly<Record<string, number>> = { pending: -2, safe: -3, finalized: -4 }
const MAX_UINT32 = 2n ** 32n - 1n

/** The blocks an erigon_getLogs / erigon_getLatestLogs filter covers: the newest one verified, and the oldest's number. */
export type ErigonLogRange =
  | { kind: 'range'; last: VerifiedHeader; begin: bigint }
  /** Nothing to read: the range starts past the head. */
  | { kind: 'empty' }
  /** The filter's blockHash names no block the upstream knows. */
  | { kind: 'unknownHash' }

/**
 * The range with the reference daemon's rules (rpc/jsonrpc/erigon_receipts.go, logRangeLatestOnly),
 * which differ from eth_getLogs': no fromBlock is genesis (not latest), no toBlock the head; of the
 * tags only `latest` and `earliest` are taken, the others are -32602 `negative value for FromBlock:
 * -3` (their internal numbers); a reversed range is -32602 `invalid block range: end (N) < begin (M)`,
 * an end past 2^32 − 1 -32602 `end (N) > MaxUint32)` (its words, parenthesis included). An end past
 * the head reads up to the head; a start past it reads nothing.
 */
export async function erigonLogRange(engine: Engine, filter: LogFilter): Promise<ErigonLogRange> {
  if (filter.blockHash !== undefined) {
    const header = await headerByHash(engine, filter.blockHash)
    return header ? { kind: 'range', last: header, begin: header.number } : { kind: 'unknownHash' }
  }
  const number = (selector: BlockSelector | undefined, field: 'FromBlock' | 'ToBlock'): bigint | undefined => {
    if (selector === undefined) return undefined
    if (selector.kind === 'number') return selector.number
    if (selector.kind === 'tag' && selector.tag === 'earliest') return 0n
    if (selector.kind === 'tag' && selector.tag in REFUSED_TAGS)
      throw new InvalidParamsRpcError(`negative value for ${field}: ${REFUSED_TAGS[selector.tag]}`)
    return undefined // latest
  }
  const from = number(filter.fromBlock, 'FromBlock')
  const to = number(filter.toBlock, 'ToBlock')
  const latest = await engine.headers.resolve({ kind: 'tag', tag: 'latest' })
  const begin = from ?? 0n
  const end = to ?? latest.number
  if (end < begin) throw new InvalidParamsRpcError(`invalid block range: end (${end}) < begin (${begin})`)
  if (end > MAX_UINT32) throw new InvalidParamsRpcError(`end (${end}) > MaxUint32)`)
  if (begin > latest.number) return { kind: 'empty' }
  const last = end >= latest.number ? latest : await engine.headers.resolve({ kind: 'number', number: end })
  return { kind: 'range', last, begin }
}
