import type { TraceType } from '../../tracing/tracers/parityTracer.js'
import { ParamError } from '../params.js'
import { describe } from '../parsers.js'

const TYPES: readonly TraceType[] = ['trace', 'stateDiff', 'vmTrace']

/** A trace_* `traceTypes` argument: a list drawn from trace, stateDiff and vmTrace. */
export function parseTraceTypes(raw: unknown): ReadonlySet<TraceType> {
  if (!Array.isArray(raw))
    throw new ParamError(`expected an array of trace types (trace, stateDiff, vmTrace), got ${describe(raw)}`)
  const out = new Set<TraceType>()
  for (const t of raw) {
    if (typeof t !== 'string' || !TYPES.includes(t as TraceType))
      throw new ParamError(`unrecognized trace type: ${typeof t === 'string' ? t : describe(t)}`)
    out.add(t as TraceType)
  }
  return out
}

/** The optional traceConfig of trace_* methods: `{tracerConfig: {includePrecompiles}}`. */
export function parseParityTraceConfig(raw: unknown): { includePrecompiles: boolean } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ParamError(`expected a trace config object, got ${describe(raw)}`)
  const tracerConfig = Object.entries(raw).find(([k]) => k.toLowerCase() === 'tracerconfig')?.[1]
  if (tracerConfig === undefined || tracerConfig === null) return { includePrecompiles: false }
  if (typeof tracerConfig !== 'object') throw new ParamError('tracerConfig must be an object')
  const value = Object.entries(tracerConfig).find(([k]) => k.toLowerCase() === 'includeprecompiles')?.[1]
  if (value !== undefined && typeof value !== 'boolean')
    throw new ParamError('tracerConfig.includePrecompiles must be a boolean')
  return { includePrecompiles: value === true }
}
