/**
 * Other threads (Node worker threads, or Web Workers in the browser), each running its own daemon
 * on the same upstream, that ranges are fanned out to: one JSON-RPC request text in, its response
 * text out. Verified data is shared between them and the main daemon through its cache.
 */
export type RangeWorkers = {
  /** How many requests run at once. */
  readonly size: number
  /** Ranges of fewer blocks than this are not worth the fan-out: the main daemon runs them. */
  readonly minBlocks: number
  /**
   * Runs one request on a free worker; aborting it ends that request (its worker is replaced), also
   * while it waits for a worker. `onTxStart` hears each JavaScript tracer's transaction start (where
   * `reportsTxStart`). `onColdStart` hears a worker started for this request: 'starting' as it
   * starts, 'ready' once its daemon is up (a Web Worker: once started; a Node thread: once it
   * begins the request). A request queued behind busy workers hears nothing.
   */
  run(
    text: string,
    signal?: AbortSignal,
    onTxStart?: () => void,
    onColdStart?: (phase: 'starting' | 'ready') => void,
  ): Promise<string>
  /** Whether run() reports the start of each transaction a JavaScript tracer traces. */
  readonly reportsTxStart?: boolean
  /**
   * Whether a worker is started and free now. A single heavy call goes to a worker only then: it
   * never waits for a thread to start (seconds), which only a long range is worth.
   */
  hasFree(): boolean
  /** Starts the pool's workers in the background (once at a time), so that later calls find one free. */
  warmUp(): void
}
