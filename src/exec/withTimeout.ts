import { ServerRpcError } from '../errors/rpc.js'
import { type Deadline, createDeadline } from '../utils/createDeadline.js'
import { formatDuration } from '../utils/formatDuration.js'

export { formatDuration }

/**
 * Runs `work` under a deadline `ms` from now, geth's `--rpc.evmtimeout`: the promise rejects with
 * geth's "execution aborted (timeout = …)" once it passes, even if the work is still winding down.
 * The work checks the deadline itself where waiting on a timer cannot help — the EVM at its jumps
 * and calls, state reads before each read — so pure computation stops on time too.
 */
export async function withTimeout<value>(ms: number, work: (deadline: Deadline) => Promise<value>): Promise<value> {
  const deadline = createDeadline(ms, () => new ServerRpcError(`execution aborted (timeout = ${formatDuration(ms)})`))
  const timeout = new Promise<never>((_, reject) => {
    deadline.signal.addEventListener('abort', () => reject(deadline.reason), { once: true })
  })
  // The race's loser must not become an unhandled rejection.
  timeout.catch(() => {})
  try {
    return await Promise.race([work(deadline), timeout])
  } finally {
    deadline.dispose()
  }
}
