import type { Engine } from '../../exec/createEngine.js'
import { ServerRpcError } from '../../errors/rpc.js'
import type { Hex } from '../../types/hex.js'
import type { CallContext } from '../../types/progress.js'
import type { RangeWorkers } from '../../types/rangeWorkers.js'
import { streamRange } from '../streamRange.js'
import type { HitBlock, ScanBudget } from './scanBudget.js'
import type { Touching } from './touchingTransactions.js'

/** One block of a stretch in which the address is touched (edgetrace_touchingBlocks): its number, hash and touching transactions. */
export type TouchingBlock = { number: Hex; hash: Hex; hits: Touching[] }

/**
 * A scan of `from`…`to` (inclusive, either direction, all within the budget) in stretches on the
 * range workers (edgetrace_touchingBlocks, each stretch scanned there as scanBlocksHere scans), its
 * hit blocks yielded in scan order as the stretches come back, each stretch's blocks taken off the
 * budget. A hit block's header is resolved here and must be the one the worker scanned (else the
 * chain changed under the search: an error). Stopping early (a full page) aborts the stretches still
 * in flight; a stretch that failed part-way yields its hits before the failure, then its error.
 */
export async function* scanOnWorkers(
  engine: Engine,
  workers: RangeWorkers,
  address: Hex,
  from: bigint,
  to: bigint,
  budget: ScanBudget,
  context: CallContext,
): AsyncGenerator<HitBlock> {
  const step = to >= from ? 1n : -1n
  const stretches = streamRange({
    workers,
    engine,
    from,
    to,
    request: (first, last) => ({ method: 'edgetrace_touchingBlocks', params: [address, first, last] }),
    deadline: context.deadline,
    signal: context.signal,
  })
  for await (const { result, first, last } of stretches) {
    for (const block of (result.value() as TouchingBlock[] | null) ?? []) {
      const number = BigInt(block.number)
      const header = await engine.headers.resolve({ kind: 'number', number })
      if (header.hash !== block.hash) {
        throw new ServerRpcError(
          `block ${number} is ${header.hash} but the worker that scanned it for ${address} found ${block.hash}: ` +
            'the chain changed under the search, ask again',
        )
      }
      yield { header, hits: block.hits }
    }
    budget.left -= (last - first) * step + 1n
  }
}
