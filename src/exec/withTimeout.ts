import { ServerRpcError } from '../errors/rpc.js'

/** Go's time.Duration formatting for the common cases ("5s", "5m0s", "1.5s"), as geth prints timeouts. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`
  const totalSeconds = ms / 1000
  const minutes = Math.floor(totalSeconds / 60)
  const seconds = totalSeconds - minutes * 60
  const s = Number.isInteger(seconds) ? `${seconds}s` : `${seconds.toFixed(3).replace(/0+$/, '')}s`
  return minutes > 0 ? `${minutes}m${s}` : s
}

/**
 * Runs `work` with an AbortSignal that fires after `ms`; the promise rejects then with geth's
 * "execution aborted (timeout = …)" even if the work is still winding down (state reads check the
 * signal and stop it at its next read).
 */
export async function withTimeout<value>(ms: number, work: (signal: AbortSignal) => Promise<value>): Promise<value> {
  const controller = new AbortController()
  const error = new ServerRpcError(`execution aborted (timeout = ${formatDuration(ms)})`)
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(error)
      reject(error)
    }, ms)
  })
  try {
    return await Promise.race([work(controller.signal), timeout])
  } finally {
    clearTimeout(timer)
  }
}
