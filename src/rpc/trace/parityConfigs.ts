import type { ParityTracerConfig, TraceResult, TraceType } from '../../tracing/tracers/parityTracer.js'

/** The flat traces of mined transactions as trace_transaction / trace_get / trace_block give them. */
export function blockFields(includePrecompiles: boolean): ParityTracerConfig {
  return {
    types: new Set<TraceType>(['trace']),
    includePrecompiles,
    creationMethod: true,
    withBlockFields: true,
    revertData: 'revertReason',
  }
}

/** What trace_replay* renders: the asked trace types, without the block fields. */
export function replayFields(types: ReadonlySet<TraceType>, includePrecompiles: boolean): ParityTracerConfig {
  return { types, includePrecompiles, creationMethod: true, withBlockFields: false, revertData: 'revertReason' }
}

/** A TraceResult's fields before `transactionHash`, in order (vmTrace goes after it). */
export function withoutTail({ vmTrace: _, ...rest }: TraceResult): Omit<TraceResult, 'vmTrace'> {
  return rest
}
