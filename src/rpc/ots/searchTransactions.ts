import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import { fetchVerifiedBlock } from '../../exec/fetchVerifiedBlock.js'
import { ServerRpcError } from '../../errors/rpc.js'
import type { Hex } from '../../types/hex.js'
import type { CallContext } from '../../types/progress.js'
import { formatTransaction } from '../eth/formatTransaction.js'
import { verifiedReceiptsOf } from '../eth/verifiedReceiptsOf.js'
import { indexedHits } from './indexedHits.js'
import { scanBlocks } from './scanBlocks.js'
import { type HitBlock, scanBudget } from './scanBudget.js'
import { firstClaims } from './upstreamSearchClaims.js'

/** The reference daemon's default --ots.search.max.pagesize. */
export const OTS_MAX_PAGE_SIZE = 25n
/** The most blocks one search may replay to find hits (--ots.search.maxblocks). */
export const OTS_SEARCH_MAX_BLOCKS = 10_000

export type SearchPage = {
  txs: Record<string, unknown>[]
  receipts: Record<string, unknown>[]
  firstPage: boolean
  lastPage: boolean
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
 * The blocks touching the address from `start` to `end` (inclusive, scan order): from the upstream's
 * own index when it has one (its ots_search*, else its trace_filter — each block it names replayed,
 * the blocks between checked, see indexedHits), else by a bounded scan of verified blocks.
 */
async function hitsFrom(
  engine: Engine,
  address: Hex,
  pageSize: bigint,
  start: bigint,
  end: bigint,
  context: CallContext,
): Promise<AsyncGenerator<HitBlock>> {
  const limit = engine.options.otsSearchMaxBlocks ?? OTS_SEARCH_MAX_BLOCKS
  if (engine.options.otsSearchIndex !== false) {
    const asked = await firstClaims(engine, address, pageSize, start, end)
    if (asked) {
      const budget = scanBudget(limit, start, "checking blocks the upstream's index leaves out")
      return indexedHits(engine, address, asked.source, asked.claims, start, end, budget, context)
    }
  }
  return scanBlocks(engine, address, start, end, scanBudget(limit, start, 'without an index'), context)
}

/**
 * ots_searchTransactionsBefore / After: transactions in which the address is the from or to of a call
 * frame (the reference's TracesFrom/TracesTo), each block's found by replaying it. A page never splits
 * a block; one more block with hits is looked for to tell whether there are more pages. Output
 * newest first.
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
  const [start, end] =
    direction === 'before' ? [blockNum === 0n ? head.number : blockNum - 1n, 1n] : [blockNum + 1n, head.number]
  const blocks: HitBlock[] = []
  let hasMore = false
  if (direction === 'before' ? start >= end : start <= end) {
    let txs = 0n
    for await (const hit of await hitsFrom(engine, address, pageSize, start, end, context)) {
      if (txs >= pageSize) {
        hasMore = true
        break
      }
      blocks.push(hit)
      txs += BigInt(hit.hits.length)
    }
  }
  if (direction === 'after') blocks.reverse()
  const entries = (
    await Promise.all(
      blocks.map((b) =>
        entriesOf(
          engine,
          b.header,
          b.hits.map((h) => h.index),
        ),
      ),
    )
  ).flat()
  return {
    txs: entries.map((e) => e.tx),
    receipts: entries.map((e) => e.receipt),
    firstPage: direction === 'before' ? blockNum === 0n : !hasMore,
    lastPage: direction === 'before' ? !hasMore : blockNum === 0n,
  }
}
