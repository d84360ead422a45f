/** Anything with AbortSignal's `aborted`/`reason` (a deadline checked on read works without timers). */
export type AbortCheck = { readonly aborted: boolean; readonly reason?: unknown }

/**
 * When a request must be answered by. Read on every check (`aborted` compares the clock: timers
 * cannot fire while the EVM computes) and, for waits that need one, as an AbortSignal that fires
 * when the deadline passes. Long work that reports progress moves the deadline on with `extend`, so
 * a 10,000-block trace_filter is bounded per block rather than as a whole.
 */
export type Deadline = {
  /** Epoch milliseconds. */
  readonly at: number
  readonly aborted: boolean
  /** The error a wait that outlived the deadline fails with. */
  readonly reason: unknown
  /** Fires once the deadline has passed (re-armed when extended before it fires). */
  readonly signal: AbortSignal
  /** Milliseconds left (0 once passed). */
  remaining(): number
  /** Moves the deadline to `ms` from now, if that is later. */
  extend(ms: number): void
  /** The request is over: its timer is cleared (the deadline still reads as before). */
  dispose(): void
}
