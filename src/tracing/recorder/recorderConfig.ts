/** What a run must record, derived from what the request will render (revm-inspectors' config). */
export type RecorderConfig = {
  /** Logs with their position (callTracer withLog, Parity, mux children that want them). */
  logs: boolean
  /** Opcode steps (struct logger, vmTrace). */
  steps: boolean
  /**
   * With steps: the bytes KECCAK256 hashed (32 to 64 of them: a mapping key and its slot, an array's
   * slot) and the hash, for naming storage slots (the source tracer).
   */
  preimages?: boolean | undefined
}
