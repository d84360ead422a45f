import { toParityError } from '../../../errors/evmErrorMap.js'
import { quantity } from '../../../utils/hex.js'
import type { CallTraceArena } from '../../recorder/types.js'
import { type FlatTraceContext, flatTrace, toFlatTraces } from '../toFlatTraces.js'

export type ParityTraceOptions = {
  /** Plain calls to precompiles are listed (Erigon's traceConfig.tracerConfig.includePrecompiles). */
  includePrecompiles: boolean
  /**
   * `creationMethod` on create actions. The recorded outputs differ by method: Besu's trace_block,
   * trace_transaction, trace_filter and trace_replay* entries carry it, its trace_call, callMany and
   * rawTransaction entries do not.
   */
  creationMethod: boolean
  /**
   * OpenEthereum's shapes (`--trace.compat`), as the recorded outputs of OpenEthereum and Besu have
   * them: OpenEthereum's error labels, no `result` on a failed frame, a reverted frame's data as
   * `revertReason` (Besu), `creationMethod` as each method's recorded outputs show it. Without it,
   * the reference daemon's (Erigon's): geth's error strings, `result: null` on a failed frame, a
   * reverted frame keeping its result with the revert data, `creationMethod` on every create.
   */
  compat?: boolean | undefined
}

/** A Parity/OpenEthereum trace entry; fields in the order the recorded outputs use. */
export type ParityTrace = Record<string, unknown>

/**
 * The Parity/OpenEthereum error label of a geth-style error, as the recorded trace_* outputs of
 * OpenEthereum and Besu word it.
 */
export function toParityTraceError(error: string): string {
  // Beyond geth's convertParityErrors table: Besu's word for both of these (its
  // ExceptionalHaltReason ILLEGAL_STATE_CHANGE; OpenEthereum said "Mutable Call In Static Context"
  // for the first), and the prefixes geth's table lists only in full.
  if (error === 'write protection' || error === 'contract address collision') return 'Illegal state change'
  if (error === 'invalid code') return 'Invalid code'
  if (error.startsWith('invalid opcode')) return 'Bad instruction'
  if (error.startsWith('stack limit reached')) return 'Out of stack'
  if (error.startsWith('out of gas')) return 'Out of gas'
  return toParityError(error)
}

/**
 * One transaction's Parity-style traces from the arena, depth first: the root's gas is what the top
 * message got (gas limit − intrinsic gas) and its gasUsed what it used before refunds; a child's gas
 * is what was forwarded to it. A failed frame's `error`, its `result` and a reverted frame's data
 * follow the shape (the reference daemon's, or OpenEthereum's with `compat`: see ParityTraceOptions);
 * a suicide has `result: null`; a STATICCALL's value is 0. Plain calls to precompiles that move no value are left out unless asked for. `ctx` with a
 * block hash adds the block and transaction fields (trace_transaction, trace_block, trace_filter);
 * without, they are left out (trace_call, trace_replay*).
 */
export function toParityTraces(
  arena: CallTraceArena,
  options: ParityTraceOptions,
  ctx?: FlatTraceContext,
): ParityTrace[] {
  const shape = options.compat
    ? {
        creationMethod: options.creationMethod,
        revertData: 'revertReason' as const,
        failedResult: 'omit' as const,
        revertedCreateAddress: false,
        errorLabel: toParityTraceError,
      }
    : {
        creationMethod: true,
        revertData: 'result' as const,
        failedResult: 'null' as const,
        revertedCreateAddress: true,
        errorLabel: (error: string) => (error === 'execution reverted' ? 'Reverted' : error),
      }
  return toFlatTraces(
    arena,
    {
      precompileCalls: options.includePrecompiles ? 'all' : 'withValue',
      rootGas: 'message',
      staticCallValue: 'zero',
      suicideResult: 'null',
      ...shape,
    },
    ctx?.blockHash !== undefined ? ctx : undefined,
  ) as ParityTrace[]
}

/** A block or uncle reward entry (trace_block, trace_filter), after the block's transactions. */
export function rewardTrace(
  author: string,
  rewardType: 'block' | 'uncle',
  value: bigint,
  blockHash: string,
  blockNumber: bigint,
): ParityTrace {
  return flatTrace({
    action: { author, rewardType, value: quantity(value) },
    blockHash,
    blockNumber: Number(blockNumber),
    result: null,
    subtraces: 0,
    traceAddress: [],
    transactionHash: null,
    transactionPosition: null,
    type: 'reward',
  }) as ParityTrace
}
