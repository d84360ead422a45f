import type { BlockOverrides, StateOverrides } from '../types/overrides.js'
import type { StructLoggerConfig } from './render/geth/createStructLogWriter.js'
import type { NativeTracer } from './tracers/types.js'

/** What a debug_trace* request asked for, parsed. */
export type TracePlan = (
  | { kind: 'structLogger'; config: StructLoggerConfig }
  | { kind: 'native'; tracer: NativeTracer; config: unknown }
) & {
  /** Per transaction (geth: 5 s unless `timeout` says otherwise). */
  timeoutMs: number
  stateOverrides?: StateOverrides | undefined
  blockOverrides?: BlockOverrides | undefined
  /** debug_traceCall: run on the state before this transaction of the block. */
  txIndex?: number | undefined
}
