import type { Engine } from '../../exec/createEngine.js'
import type { ParityTracerConfig } from '../../tracing/tracers/parityTracer.js'
import { parityTracer } from '../../tracing/tracers/parityTracer.js'
import { DEFAULT_TRACE_TIMEOUT_MS } from '../parseTraceConfig.js'
import type { TracePlan } from '../../tracing/tracePlan.js'
import type { FlatTraceContext } from '../../tracing/render/toFlatTraces.js'
import { type TxTraceSession, startTxTrace } from '../../tracing/startTxTrace.js'

/** A plan running the Parity renderer with the given options (one recorder run per transaction). */
function parityPlan(config: ParityTracerConfig, timeoutMs = DEFAULT_TRACE_TIMEOUT_MS): TracePlan {
  return {
    kind: 'native',
    tracer: parityTracer as TracePlan extends { tracer: infer t } ? t : never,
    config,
    timeoutMs,
  }
}

/**
 * Starts tracing one transaction for a trace_* method; `finish` yields its TraceResult, in the
 * reference daemon's shapes or, with --trace.compat, OpenEthereum's. `vmTraceIdx`: the vmTrace's
 * `idx` prefix (the transaction's or call's index and "-"; none for a lone call).
 */
export function startParityTrace(
  engine: Engine,
  config: ParityTracerConfig,
  context: FlatTraceContext,
  vmTraceIdx = '',
): TxTraceSession {
  const shaped = { ...config, compat: engine.options.traceCompat === true, vmTraceIdx }
  return startTxTrace(parityPlan(shaped, engine.options.evmTimeoutMs), context)
}
