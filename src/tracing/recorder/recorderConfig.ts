/** What a run must record, derived from what the request will render (revm-inspectors' config). */
export type RecorderConfig = {
  /** Logs with their position (callTracer withLog, Parity, mux children that want them). */
  logs: boolean
  /** Opcode steps (struct logger, vmTrace). */
  steps: boolean
}
