import type { AbortCheck } from '../types/deadline.js'

/** Stops execution by throwing the deadline's reason out of the interpreter once it has passed. */
export function throwIfAborted(signal: AbortCheck | undefined): void {
  if (signal?.aborted) throw signal.reason
}
