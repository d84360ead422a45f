// Where a JavaScript tracer's thread tells its pool that one more transaction's trace starts: each
// transaction of a block (or of debug_traceCallMany) has the tracer's timeout of its own, counted by
// the main thread, which ends the thread once one outlives it (an endless tracer cannot be
// interrupted otherwise). One listener per thread: the task being run.

let listener: (() => void) | undefined

/** Hears every transaction trace this thread starts (undefined: stops listening). */
export function onJsTracerTxStart(next: (() => void) | undefined): void {
  listener = next
}

/** A JavaScript tracer's transaction starts here. */
export function jsTracerTxStarted(): void {
  listener?.()
}
