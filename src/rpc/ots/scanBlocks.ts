import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import { ServerRpcError } from '../../errors/rpc.js'
import type { Hex } from '../../types/hex.js'
import type { CallContext } from '../../types/progress.js'
import { verifiedHeaderRange } from '../eth/verifiedHeaderRange.js'
import { type Touching, touchingTransactions } from './touchingTransactions.js'

/** Headers fetched at once while scanning (one batch). */
const WINDOW = 256n
/** Blocks replayed at once while scanning. */
const AHEAD = 4

/** A block in which the searched address was found, with its touching transactions. */
export type HitBlock = { header: VerifiedHeader; hits: Touching[] }

/**
 * How many blocks one search may still replay (--ots.search.maxblocks), shared by all its scans;
 * `what` says in the error what the scanning was for.
 */
export type ScanBudget = { left: bigint; readonly limit: bigint; readonly from: bigint; readonly what: string }

export function scanBudget(limit: number, from: bigint, what: string): ScanBudget {
  return { left: BigInt(limit), limit: BigInt(limit), from, what }
}

/**
 * The blocks of `from`…`to` (inclusive, either direction) in which the address is touched, in scan
 * order: verified headers fetched a window at a time and linked by parent hashes, each block holding
 * transactions replayed (a few ahead of the one looked at). Every block counts against the budget;
 * past it, an error naming the flag. The consumer stops pulling when its page is full.
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
      if (budget.left-- <= 0n) {
        throw new ServerRpcError(
          `ots search ${budget.what}: more than ${budget.limit} blocks to scan from block ${budget.from} ` +
            `(--ots.search.maxblocks); ask from a nearer block`,
        )
      }
      const ahead = Math.min(window.length, j + AHEAD, j + Number(budget.left) + 1)
      for (let k = j + 1; k < ahead; k++) replay(k)
      const hits = await replay(j)
      if (hits.length > 0) yield { header, hits }
    }
  }
}
