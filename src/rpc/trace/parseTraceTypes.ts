import type { TraceType } from '../../tracing/tracers/parityTracer.js'
import type { BlockOverrides, StateOverrides } from '../../types/overrides.js'
import { parseBlockOverrides, parseStateOverrides } from '../parseOverrides.js'
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

export type ParityTraceConfig = {
  includePrecompiles: boolean
  /** trace_call, trace_callMany, trace_rawTransaction: state overrides applied before the (first) call. */
  stateOverrides?: StateOverrides | undefined
  /** trace_call, trace_callMany, trace_rawTransaction: the block context's overrides. */
  blockOverrides?: BlockOverrides | undefined
}

/**
 * The optional traceConfig of trace_* methods: `{tracerConfig: {includePrecompiles}, stateOverrides,
 * blockOverrides}` (the reference daemon's; keys case-insensitive, as Go decodes them).
 */
export function parseParityTraceConfig(raw: unknown): ParityTraceConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ParamError(`expected a trace config object, got ${describe(raw)}`)
  const field = (o: object, name: string) => Object.entries(o).find(([k]) => k.toLowerCase() === name)?.[1]
  const out: ParityTraceConfig = { includePrecompiles: false }
  const state = field(raw, 'stateoverrides')
  if (state !== undefined && state !== null) out.stateOverrides = parseStateOverrides(state)
  const block = field(raw, 'blockoverrides')
  if (block !== undefined && block !== null) out.blockOverrides = parseBlockOverrides(block)
  const tracerConfig = field(raw, 'tracerconfig')
  if (tracerConfig === undefined || tracerConfig === null) return out
  if (typeof tracerConfig !== 'object') throw new ParamError('tracerConfig must be an object')
  const value = field(tracerConfig, 'includeprecompiles')
  if (value !== undefined && typeof value !== 'boolean')
    throw new ParamError('tracerConfig.includePrecompiles must be a boolean')
  out.includePrecompiles = value === true
  return out
}
