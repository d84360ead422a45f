import type { Engine } from '../exec/createEngine.js'
import type { WorkerResult } from './runOnWorker.js'
import type { Deadline } from '../types/deadline.js'
import type { RangeWorkers } from '../types/rangeWorkers.js'
import { streamRange } from './streamRange.js'

/** The workers a range of `blocks` blocks fans out to, or undefined when it runs here. */
export function rangeWorkersFor(engine: Engine, blocks: bigint): RangeWorkers | undefined {
  const workers = engine.rangeWorkers
  return workers && workers.size > 0 && blocks >= BigInt(Math.max(2, workers.minBlocks)) ? workers : undefined
}

/**
 * Runs a range method over `from…to` as tasks of consecutive blocks on the workers, at most two per
 * worker in flight, and hands each task's result to `onChunk` in block order (so results stream in
 * order while later chunks are computed; see streamRange). `onChunk` returning false stops the
 * range: tasks in flight are aborted. A worker's JSON-RPC error is the range's error, as it would
 * have been here; a task that failed part-way hands its partial result to `onChunk` first (so `last`
 * is then the task's last block, not the last one done).
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
  for await (const { result, last } of streamRange({ workers, engine, from, to, request, deadline })) {
    const goOn = await onChunk(result, last)
    // A task that failed part-way: its traces went out, its error ends the range.
    if (result.error) throw result.error
    if (!goOn) return
  }
}
