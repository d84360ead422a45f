import { ExecutionTimeoutError } from '../errors/execution.js'
import { UpstreamUnavailableError } from '../errors/upstream.js'

/**
 * Whether a shared state read's failure was about its starter's time (an upstream call given up at
 * its limit, a deadline passed) rather than about the state: a later reader who joined it reads again.
 */
export function rejoinAfterTimeout(err: unknown): boolean {
  return err instanceof UpstreamUnavailableError || err instanceof ExecutionTimeoutError
}
