import { bytes } from '../../utils/hex.js'
import { type ParityTraceOptions, toParityTraces } from '../render/parity/toParityTraces.js'
import { toStateDiff } from '../render/parity/toStateDiff.js'
import { toVmTrace } from '../render/parity/toVmTrace.js'
import type { NativeTracer } from './types.js'

export type TraceType = 'trace' | 'stateDiff' | 'vmTrace'

export type ParityTracerConfig = ParityTraceOptions & {
  types: ReadonlySet<TraceType>
  /** Entries carry block and transaction fields (trace_transaction, trace_block, trace_filter). */
  withBlockFields: boolean
  /**
   * Where a reverted transaction's revert data goes: into `output` (Besu's trace_call, callMany,
   * rawTransaction) or, with `output` "0x", into a `revertReason` field (its trace_replay*).
   */
  revertData: 'output' | 'revertReason'
  /** The vmTrace's `idx` prefix (see toVmTrace): the transaction's or call's index and "-", or "". */
  vmTraceIdx?: string | undefined
}

/** A trace_* result: `{output, stateDiff, trace, vmTrace}`; what was not asked for is null / []. */
export type TraceResult = {
  output: string
  revertReason?: string
  stateDiff: unknown
  trace: unknown[]
  vmTrace: unknown
}

/**
 * The trace namespace's renderer (not a geth tracer name): Parity traces, stateDiff and the output
 * of one transaction from the same recorder run the geth tracers use.
 */
export const parityTracer: NativeTracer<ParityTracerConfig> = {
  name: 'parity',
  parseConfig: () => {
    throw new Error('parityTracer is configured by the trace_* methods')
  },
  needs: (config) => ({
    logs: false,
    steps: config.types.has('vmTrace'),
    state: config.types.has('stateDiff') || config.types.has('vmTrace'),
  }),
  render(run, config): TraceResult {
    const root = run.arena.nodes[0]
    const reverted = root?.error === 'execution reverted'
    // The reference daemon answers a reverted transaction's revert data as its output; Besu (compat)
    // does so for calls only, and adds it as `revertReason` to its replays (OpenEthereum did not).
    const inOutput = reverted && (!config.compat || config.revertData === 'output')
    return {
      output: root && (!root.reverted || inOutput) ? bytes(root.output) : '0x',
      ...(reverted && !inOutput && root.output.length > 0 ? { revertReason: bytes(root.output) } : {}),
      stateDiff: config.types.has('stateDiff') && run.access ? toStateDiff(run.access) : null,
      trace: config.types.has('trace')
        ? toParityTraces(run.arena, config, config.withBlockFields ? run.context : undefined)
        : [],
      vmTrace: config.types.has('vmTrace')
        ? toVmTrace(run.arena, run.access, { compat: config.compat === true, idxPrefix: config.vmTraceIdx ?? '' })
        : null,
    }
  },
}
