/** What a run must record, derived from what the request will render (revm-inspectors' config). */
export type RecorderConfig = {
  /** Logs with their position (callTracer withLog, Parity, mux children that want them). */
  logs: boolean
  /** Opcode steps (struct logger, vmTrace). */
  steps: boolean
}

export const NOTHING: RecorderConfig = { logs: false, steps: false }

/** The union of what several renderers need (muxTracer: one run for all children). */
export function mergeRecorderConfig(...configs: RecorderConfig[]): RecorderConfig {
  return { logs: configs.some((c) => c.logs), steps: configs.some((c) => c.steps) }
}
