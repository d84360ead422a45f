import { ExecutionTimeoutError } from '../errors/execution.js'
import type { Deadline } from '../types/deadline.js'
import { createDeadline } from '../utils/createDeadline.js'
import { formatDuration } from '../utils/formatDuration.js'

export { formatDuration }

/** geth's evmtimeout as a deadline `ms` from now: "execution aborted (timeout = …)" once it passes. */
export function createExecutionDeadline(ms: number): Deadline {
  return createDeadline(ms, () => new ExecutionTimeoutError(ms))
}

/**
 * Runs `work` under a deadline `ms` from now, geth's `--rpc.evmtimeout` — or under `shared`, the one
 * deadline of a request that runs several executions (a replay, then a call on its state): one
 * budget for all of them, never a fresh one each. The promise rejects with geth's "execution aborted
 * (timeout = …)" once it passes, even if the work is still winding down. The work checks the
 * deadline itself where waiting on a timer cannot help — the EVM at its jumps and calls, state reads
 * before each read — so pure computation stops on time too.
 */
export async function withTimeout<value>(
  ms: number,
  work: (deadline: Deadline) => Promise<value>,
  shared?: Deadline,
): Promise<value> {
  const deadline = shared ?? createExecutionDeadline(ms)
  let onAbort = () => {}
  const timeout = new Promise<never>((_, reject) => {
    onAbort = () => reject(deadline.reason)
    deadline.signal.addEventListener('abort', onAbort, { once: true })
  })
  // The race's loser must not become an unhandled rejection.
  timeout.catch(() => {})
  try {
    return await Promise.race([work(deadline), timeout])
  } finally {
    // A shared deadline outlives this run (a range traced block after block under one deadline):
    // its listener goes with the run, or they would pile up, one per block.
    deadline.signal.removeEventListener('abort', onAbort)
    if (!shared) deadline.dispose()
  }
}
