import { formatDuration } from '../utils/formatDuration.js'
import type { Call } from './settleCall.js'

/**
 * Gives the call its own time limit, retries included: `expire` is told why once `timeoutMs` passed
 * since it was asked, whatever it is waiting for (a slot, a retry, an answer). Settling the call
 * clears the timer.
 */
export function startCallTimeout(call: Call, timeoutMs: number, expire: (reason: string) => void): void {
  const timer = setTimeout(() => {
    const waited = `${((Date.now() - call.askedAt) / 1000).toFixed(1)} s`
    expire(`no answer to ${call.method} within ${formatDuration(timeoutMs)} (waited ${waited})`)
  }, timeoutMs)
  call.detach = () => clearTimeout(timer)
}
