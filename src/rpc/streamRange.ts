import type { Engine } from '../exec/createEngine.js'
import type { Deadline } from '../types/deadline.js'
import type { RangeWorkers } from '../types/rangeWorkers.js'
import { quantity } from '../utils/hex.js'
import { type WorkerResult, runOnWorker } from './runOnWorker.js'

/** One stretch's result, with its first and last block in the range's order. */
export type RangeStretch = { result: WorkerResult; first: bigint; last: bigint }

/** Blocks per task: a few tasks per worker (so a slow stretch does not hold the others back), 8 to 250. */
function chunkSize(blocks: bigint, workers: number): bigint {
  const even = (blocks + BigInt(workers * 4) - 1n) / BigInt(workers * 4)
  return even < 8n ? 8n : even > 250n ? 250n : even
}

/**
 * Runs a range method over `from`…`to` (inclusive, either direction: a descending range is cut into
 * descending stretches) as tasks of consecutive blocks on the workers, at most two per worker in
 * flight, and yields each task's result in the range's order while later ones are computed. Leaving
 * the loop early (break, return, a throw) aborts the tasks in flight, as do the deadline and `signal`
 * (the client gone). A worker's JSON-RPC error is the range's error, as it would have been here; a
 * task that failed part-way yields its partial result first, then throws its error when asked for
 * the next (a consumer that stops there never sees it, as with a scan here that stops before it).
 */
export async function* streamRange({
  workers,
  engine,
  from,
  to,
  request,
  deadline,
  signal,
}: {
  workers: RangeWorkers
  engine: Engine
  from: bigint
  to: bigint
  /** The method and params that compute one stretch, `first` to `last` in the range's order (quantities). */
  request: (first: string, last: string) => { method: string; params: unknown[] }
  deadline?: Deadline | undefined
  signal?: AbortSignal | undefined
}): AsyncGenerator<RangeStretch> {
  const step = to >= from ? 1n : -1n
  const size = chunkSize((to - from) * step + 1n, workers.size)
  const stop = new AbortController()
  const onDeadline = () => stop.abort(deadline?.reason)
  const onSignal = () => stop.abort(signal?.reason)
  deadline?.signal.addEventListener('abort', onDeadline)
  signal?.addEventListener('abort', onSignal)
  const inFlight: { first: bigint; last: bigint; result: Promise<WorkerResult> }[] = []
  let next = from
  const launch = () => {
    if (step > 0n ? next > to : next < to) return
    const first = next
    const far = first + step * (size - 1n)
    const last = step > 0n ? (far > to ? to : far) : far < to ? to : far
    next = last + step
    const { method, params } = request(quantity(first), quantity(last))
    const result = runOnWorker(workers, method, params, stop.signal)
    result.catch(() => {}) // awaited in order below
    inFlight.push({ first, last, result })
  }
  try {
    signal?.throwIfAborted()
    for (let i = 0; i < workers.size * 2; i++) launch()
    while (inFlight.length > 0) {
      const { first, last, result } = inFlight.shift()!
      let value: WorkerResult
      try {
        value = await result
      } catch (err) {
        throw deadline?.aborted ? deadline.reason : err
      }
      // The range's budget is per block, as when it runs here: each stretch done moves the deadline on.
      deadline?.extend(engine.options.evmTimeoutMs)
      yield { result: value, first, last }
      // A task that failed part-way: its part went out, its error ends the range.
      if (value.error) throw value.error
      launch()
    }
  } finally {
    deadline?.signal.removeEventListener('abort', onDeadline)
    signal?.removeEventListener('abort', onSignal)
    if (inFlight.length > 0) stop.abort(new Error('range stopped'))
  }
}
