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

/** Starts tracing one transaction for a trace_* method; `finish` yields its TraceResult. */
export function startParityTrace(
  config: ParityTracerConfig,
  context: FlatTraceContext,
  timeoutMs: number,
): TxTraceSession {
  return startTxTrace(parityPlan(config, timeoutMs), context)
}
