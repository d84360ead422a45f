import type { BlockOverrides, StateOverrides } from '../types/overrides.js'
import type { StructLoggerConfig } from './render/geth/createStructLogWriter.js'
import type { NativeTracer } from './tracers/types.js'
import type { JsLoadedState, JsStateMiss } from './js/createJsTracerSession.js'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import type { SourceRegistry } from '../sources/createSourceRegistry.js'
import type { SourceLookup } from '../sources/types.js'

/** What a debug_trace* request asked for, parsed. */
export type TracePlan = (
  | { kind: 'structLogger'; config: StructLoggerConfig }
  | { kind: 'native'; tracer: NativeTracer; config: unknown }
  /** A JavaScript tracer: its source, and its tracerConfig as the JSON text setup() is given. */
  | {
      kind: 'js'
      source: string
      config: string
      /** db reads a run could not answer from the state it had loaded: fetched, then the trace runs again. */
      misses: JsStateMiss[]
      /** The block whose state those reads missed in (the executions' base). */
      missedAt?: VerifiedHeader | undefined
      /** What earlier runs missed, loaded from that block's state for the next run's db. */
      loaded?: JsLoadedState | undefined
    }
) & {
  /** Per transaction (geth: 5 s unless `timeout` says otherwise). */
  timeoutMs: number
  stateOverrides?: StateOverrides | undefined
  blockOverrides?: BlockOverrides | undefined
  /** debug_traceCall: run on the state before this transaction of the block. */
  txIndex?: number | undefined
  /** The engine's known contracts, for a native tracer that renders at the source level. */
  sources?: SourceRegistry | undefined
  /** The engine's Sourcify lookup, for code none of `sources` matches. */
  sourceLookup?: SourceLookup | undefined
}
