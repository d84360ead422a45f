import { toParityError } from '../../../errors/evmErrorMap.js'
import type { CallTraceArena } from '../../recorder/types.js'
import { type FlatTraceContext, toFlatTraces } from '../toFlatTraces.js'

export type FlatCallTracerConfig = {
  includePrecompiles: boolean
  convertParityErrors: boolean
  /**
   * The top entry's gas: 'transaction' (geth's flatCallTracer: the transaction's gas limit and
   * receipt gas) or 'message' (Parity/Erigon trace: what the top message got after intrinsic gas,
   * and what it used before refunds).
   */
  rootGas?: 'transaction' | 'message'
}

export type FlatCallFrame = {
  action: Record<string, unknown>
  blockHash: string | null
  blockNumber: number
  error?: string
  result?: Record<string, unknown>
  subtraces: number
  traceAddress: number[]
  transactionHash: string | null
  transactionPosition: number
  type: string
}

const keepError = (error: string) => error

/**
 * geth's flatCallTracer (Parity's flat format) from the arena: the callTracer's view of each frame
 * (root gas from the transaction; failed creates lose their address; non-revert errors lose their
 * result, reverted frames keep it with the revert data as output), flattened depth-first with
 * traceAddress and subtraces; plain calls to precompiles are dropped unless includePrecompiles.
 * Every entry has the block and transaction fields, null where not known.
 */
export function toFlatCallFrames(
  arena: CallTraceArena,
  config: FlatCallTracerConfig,
  ctx: FlatTraceContext,
): FlatCallFrame[] {
  return toFlatTraces(
    arena,
    {
      precompileCalls: config.includePrecompiles ? 'all' : 'none',
      rootGas: config.rootGas ?? 'transaction',
      creationMethod: true,
      staticCallValue: 'frame',
      revertData: 'result',
      suicideResult: 'omit',
      failedResult: 'omit',
      revertedCreateAddress: false,
      errorLabel: config.convertParityErrors ? toParityError : keepError,
    },
    ctx,
  ) as FlatCallFrame[]
}
