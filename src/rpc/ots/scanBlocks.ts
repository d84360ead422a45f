import type { Engine } from '../../exec/createEngine.js'
import { ServerRpcError } from '../../errors/rpc.js'
import type { Hex } from '../../types/hex.js'
import type { CallContext } from '../../types/progress.js'
import { verifiedHeaderRange } from '../eth/verifiedHeaderRange.js'
import { rangeWorkersFor } from '../fanOutRange.js'
import type { HitBlock, ScanBudget } from './scanBudget.js'
import { scanOnWorkers } from './scanOnWorkers.js'
import { type Touching, touchingTransactions } from './touchingTransactions.js'

/** Headers fetched at once while scanning (one batch). */
const WINDOW = 256n
/** Blocks replayed at once while scanning. */
const AHEAD = 4

/** The error of a search whose scans would go past its budget. */
const overBudget = (budget: ScanBudget) =>
  new ServerRpcError(
    `ots search ${budget.what}: more than ${budget.limit} blocks to scan from block ${budget.from} ` +
      `(--ots.search.maxblocks); ask from a nearer block`,
  )

/**
 * The blocks of `from`…`to` (inclusive, either direction) in which the address is touched, in scan
 * order; every block counts against the budget, and past it comes an error naming the flag. The
 * consumer stops pulling when its page is full. Where the daemon has range workers (threads, a pool's
 * Web Workers, the fleet's queue) and the blocks within the budget are enough for them, those are
 * scanned in stretches on the workers (scanOnWorkers: the same blocks, in the same order); else here
 * (scanBlocksHere).
 */
export async function* scanBlocks(
  engine: Engine,
  address: Hex,
  from: bigint,
  to: bigint,
  budget: ScanBudget,
  context: CallContext,
): AsyncGenerator<HitBlock> {
  const step = to >= from ? 1n : -1n
  const length = (to - from) * step + 1n
  const within = budget.left < length ? (budget.left > 0n ? budget.left : 0n) : length
  const workers = rangeWorkersFor(engine, within)
  if (!workers) {
    yield* scanBlocksHere(engine, address, from, to, budget, context)
    return
  }
  yield* scanOnWorkers(engine, workers, address, from, from + step * (within - 1n), budget, context)
  if (within < length) throw overBudget(budget)
}

/**
 * scanBlocks on this daemon: verified headers fetched a window at a time and linked by parent hashes,
 * each block holding transactions replayed (a few ahead of the one looked at). A range worker's
 * stretch of a scan (edgetrace_touchingBlocks) is scanned so.
 */
export async function* scanBlocksHere(
  engine: Engine,
  address: Hex,
  from: bigint,
  to: bigint,
  budget: ScanBudget,
  context: CallContext,
): AsyncGenerator<HitBlock> {
  const step = to >= from ? 1n : -1n
  for (let start = from; step > 0n ? start <= to : start >= to; start += step * WINDOW) {
    const far = start + step * (WINDOW - 1n)
    const end = step > 0n ? (far < to ? far : to) : far > to ? far : to
    const [lo, hi] = step > 0n ? [start, end] : [end, start]
    const last = await engine.headers.resolve({ kind: 'number', number: hi })
    const window = await verifiedHeaderRange(engine, lo, last)
    if (step < 0n) window.reverse()
    // The next few blocks are replayed while one is looked at (independent, so in parallel); a
    // replay started past what the consumer takes is only wasted work, its failure ignored.
    const replays: Promise<Touching[]>[] = []
    const replay = (j: number) => {
      if (replays[j] === undefined) {
        replays[j] = touchingTransactions(engine, window[j]!, address, context)
        replays[j].catch(() => {})
      }
      return replays[j]
    }
    for (const [j, header] of window.entries()) {
      if (budget.left-- <= 0n) throw overBudget(budget)
      const ahead = Math.min(window.length, j + AHEAD, j + Number(budget.left) + 1)
      for (let k = j + 1; k < ahead; k++) replay(k)
      const hits = await replay(j)
      if (hits.length > 0) yield { header, hits }
    }
  }
}
