import { KECCAK256_RLP, equalsBytes } from '@ethereumjs/util'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import { fetchVerifiedBlock } from '../../exec/fetchVerifiedBlock.js'
import { ServerRpcError } from '../../errors/rpc.js'
import type { Hex } from '../../types/hex.js'
import type { CallContext } from '../../types/progress.js'
import { formatTransaction } from '../eth/formatTransaction.js'
import { verifiedReceiptsOf } from '../eth/verifiedReceiptsOf.js'
import { verifiedHeaderRange } from '../eth/verifiedHeaderRange.js'
import { blockFields } from '../trace/parityConfigs.js'
import { traceBlockTransactions } from '../trace/replayTraces.js'

/** The reference daemon's default --ots.search.max.pagesize. */
export const OTS_MAX_PAGE_SIZE = 25n
/** The most blocks one search may scan without an index (--ots.search.maxblocks). */
export const OTS_SEARCH_MAX_BLOCKS = 10_000
/** Headers fetched at once while scanning (one batch). */
const WINDOW = 256n
/** Blocks replayed at once while scanning. */
const AHEAD = 4

export type SearchPage = {
  txs: Record<string, unknown>[]
  receipts: Record<string, unknown>[]
  firstPage: boolean
  lastPage: boolean
}

/** A block's transactions that touch the address, found by replay: their indexes in the block. */
async function touchingIndexes(
  engine: Engine,
  header: VerifiedHeader,
  address: Hex,
  context: CallContext,
): Promise<number[]> {
  // A block without transactions touches nobody: its header says so, no replay needed.
  if (equalsBytes(header.header.transactionsTrie, KECCAK256_RLP)) return []
  const traced = await traceBlockTransactions(
    engine,
    { kind: 'hash', hash: header.hash as Hex, requireCanonical: false },
    blockFields(false),
    context,
  )
  const hits: number[] = []
  for (const tx of traced?.traced ?? []) {
    const touches = (tx.result.trace as { action: Record<string, unknown>; result?: unknown }[]).some((entry) => {
      const result = entry.result as { address?: unknown } | null | undefined
      // from/to of calls, the sender and the created address of creates, both ends of a selfdestruct.
      const ends = [
        entry.action.from,
        entry.action.to,
        result?.address,
        entry.action.address,
        entry.action.refundAddress,
      ]
      return ends.some((a) => typeof a === 'string' && a.toLowerCase() === address)
    })
    if (touches) hits.push(tx.index)
  }
  return hits
}

/** The page's entries of one verified block: its matching transactions and receipts, newest first. */
async function entriesOf(engine: Engine, header: VerifiedHeader, indexes: number[]) {
  const verified = await fetchVerifiedBlock(engine, header)
  const receipts = await verifiedReceiptsOf(engine, verified)
  const { block } = verified
  return [...indexes].reverse().map((i) => {
    const tx = formatTransaction(block.transactions[i]!, {
      blockHash: header.hash as Hex,
      blockNumber: header.number,
      blockTimestamp: block.header.timestamp,
      index: i,
      baseFee: block.header.baseFeePerGas,
    })
    // The reference's receipt: its own gas used as cumulative (a quirk kept), and the block's time as a number.
    const receipt: Record<string, unknown> = {
      ...receipts[i]!,
      cumulativeGasUsed: receipts[i]!.gasUsed,
      timestamp: Number(block.header.timestamp),
    }
    const sorted = Object.fromEntries(Object.entries(receipt).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    return { tx, receipt: sorted }
  })
}

/**
 * Blocks of `from`…`to` (inclusive, either direction), verified headers fetched a window at a time and
 * linked by parent hashes, each block replayed when it holds transactions. Stops when `want` blocks
 * with hits are found; more than `limit` blocks scanned is an error naming the flag.
 */
async function scan(
  engine: Engine,
  address: Hex,
  from: bigint,
  to: bigint,
  want: (blocksWithHits: number, txs: number) => boolean,
  context: CallContext,
): Promise<{ header: VerifiedHeader; indexes: number[] }[]> {
  const limit = BigInt(engine.options.otsSearchMaxBlocks ?? OTS_SEARCH_MAX_BLOCKS)
  const step = to >= from ? 1n : -1n
  const found: { header: VerifiedHeader; indexes: number[] }[] = []
  let txs = 0
  let scanned = 0n
  for (let start = from; step > 0n ? start <= to : start >= to; start += step * WINDOW) {
    const end =
      step > 0n
        ? start + WINDOW - 1n < to
          ? start + WINDOW - 1n
          : to
        : start - WINDOW + 1n > to
          ? start - WINDOW + 1n
          : to
    const [lo, hi] = step > 0n ? [start, end] : [end, start]
    const last = await engine.headers.resolve({ kind: 'number', number: hi })
    const window = await verifiedHeaderRange(engine, lo, last)
    if (step < 0n) window.reverse()
    // The next few blocks are replayed while one is looked at (independent, so in parallel); a
    // replay started past the page's end is only wasted work, its failure ignored.
    const replays: Promise<number[]>[] = []
    const replay = (j: number) => {
      if (replays[j] === undefined) {
        replays[j] = touchingIndexes(engine, window[j]!, address, context)
        replays[j].catch(() => {})
      }
      return replays[j]
    }
    for (const [j, header] of window.entries()) {
      if (++scanned > limit) {
        throw new ServerRpcError(
          `ots search without an index: more than ${limit} blocks to scan from block ${from} ` +
            `(--ots.search.maxblocks); ask from a nearer block`,
        )
      }
      const ahead = Math.min(window.length, j + AHEAD, j + Number(limit - scanned) + 1)
      for (let k = j + 1; k < ahead; k++) replay(k)
      const indexes = await replay(j)
      if (indexes.length === 0) continue
      if (!want(found.length, txs)) return [...found, { header, indexes: [] }]
      found.push({ header, indexes })
      txs += indexes.length
    }
  }
  return found
}

/**
 * ots_searchTransactionsBefore / After without an index: a bounded scan of verified blocks, every
 * transaction replayed and kept when the address is the from or to of one of its call frames (the
 * reference's TracesFrom/TracesTo). A page never splits a block; one more block with hits is looked
 * for to tell whether there are more pages. Output newest first.
 */
export async function searchTransactions(
  engine: Engine,
  address: Hex,
  blockNum: bigint,
  pageSize: bigint,
  direction: 'before' | 'after',
  context: CallContext,
): Promise<SearchPage> {
  if (pageSize > OTS_MAX_PAGE_SIZE) throw new ServerRpcError(`max allowed page size: ${OTS_MAX_PAGE_SIZE}`)
  const head = await engine.headers.resolve({ kind: 'tag', tag: 'latest' })
  // Block 0 ran no transactions; the reference's blockNum 0 means the tip (before) or genesis (after).
  const [from, to] =
    direction === 'before' ? [blockNum === 0n ? head.number : blockNum - 1n, 1n] : [blockNum + 1n, head.number]
  const wantMore = (_blocks: number, txs: number) => BigInt(txs) < pageSize
  const hits = (direction === 'before' ? from >= to : from <= to)
    ? await scan(engine, address, from, to, wantMore, context)
    : []
  const hasMore = hits.length > 0 && hits[hits.length - 1]!.indexes.length === 0
  const blocks = hasMore ? hits.slice(0, -1) : hits
  if (direction === 'after') blocks.reverse()
  const entries = (await Promise.all(blocks.map((b) => entriesOf(engine, b.header, b.indexes)))).flat()
  return {
    txs: entries.map((e) => e.tx),
    receipts: entries.map((e) => e.receipt),
    firstPage: direction === 'before' ? blockNum === 0n : !hasMore,
    lastPage: direction === 'before' ? !hasMore : blockNum === 0n,
  }
}
