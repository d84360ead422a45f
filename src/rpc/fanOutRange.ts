import type { Engine } from '../exec/createEngine.js'
import { type WorkerResult, runOnWorker } from './runOnWorker.js'
import type { Deadline } from '../types/deadline.js'
import type { RangeWorkers } from '../types/rangeWorkers.js'
import { quantity } from '../utils/hex.js'

/** The workers a range of `blocks` blocks fans out to, or undefined when it runs here. */
export function rangeWorkersFor(engine: Engine, blocks: bigint): RangeWorkers | undefined {
  const workers = engine.rangeWorkers
  return workers && workers.size > 0 && blocks >= BigInt(Math.max(2, workers.minBlocks)) ? workers : undefined
}

/** Blocks per task: a few tasks per worker (so a slow stretch does not hold the others back), 8 to 250. */
function chunkSize(blocks: bigint, workers: number): bigint {
  const even = (blocks + BigInt(workers * 4) - 1n) / BigInt(workers * 4)
  return even < 8n ? 8n : even > 250n ? 250n : even
}

/**
 * Runs a range method over `from…to` as tasks of consecutive blocks on the workers, at most two per
 * worker in flight, and hands each task's result to `onChunk` in block order (so results stream in
 * order while later chunks are computed). `onChunk` returning false stops the range: tasks in flight
 * are aborted. A worker's JSON-RPC error is the range's error, as it would have been here; a task that
 * failed part-way hands its partial result to `onChunk` first (so `last` is then the task's last block,
 * not the last one done).
 */
export async function fanOutRange({
  workers,
  engine,
  from,
  to,
  request,
  onChunk,
  deadline,
}: {
  workers: RangeWorkers
  engine: Engine
  from: bigint
  to: bigint
  /** The method and params that compute one chunk (block numbers as quantities). */
  request: (from: string, to: string) => { method: string; params: unknown[] }
  onChunk: (result: WorkerResult, last: bigint) => Promise<boolean> | boolean
  deadline?: Deadline | undefined
}): Promise<void> {
  const size = chunkSize(to - from + 1n, workers.size)
  const stop = new AbortController()
  const onDeadline = () => stop.abort(deadline?.reason)
  deadline?.signal.addEventListener('abort', onDeadline)
  const inFlight: { last: bigint; result: Promise<WorkerResult> }[] = []
  let next = from
  const launch = () => {
    if (next > to) return
    const first = next
    const last = first + size - 1n > to ? to : first + size - 1n
    next = last + 1n
    const { method, params } = request(quantity(first), quantity(last))
    const result = runOnWorker(workers, method, params, stop.signal)
    result.catch(() => {}) // awaited in order below
    inFlight.push({ last, result })
  }
  try {
    for (let i = 0; i < workers.size * 2; i++) launch()
    while (inFlight.length > 0) {
      const { last, result } = inFlight.shift()!
      let value: WorkerResult
      try {
        value = await result
      } catch (err) {
        throw deadline?.aborted ? deadline.reason : err
      }
      // The range's budget is per block, as when it runs here: each chunk done moves the deadline on.
      deadline?.extend(engine.options.evmTimeoutMs)
      const goOn = await onChunk(value, last)
      // A task that failed part-way: its traces went out, its error ends the range.
      if (value.error) throw value.error
      if (!goOn) return
      launch()
    }
  } finally {
    deadline?.signal.removeEventListener('abort', onDeadline)
    if (inFlight.length > 0) stop.abort(new Error('range stopped'))
  }
}
