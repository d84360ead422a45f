import type { Engine } from '../../exec/createEngine.js'
import type { LoadedBlock } from '../../exec/loadBlock.js'
import { type TraceAt, type TraceTarget, runTrace } from '../../exec/runTrace.js'
import { GenesisNotTraceableError, TransactionNotFoundError } from '../../errors/replay.js'
import { InvalidParamsRpcError } from '../../errors/rpc.js'
import { BlockNotFoundError } from '../../errors/state.js'
import type { ParityTracerConfig, TraceResult } from '../../tracing/tracers/parityTracer.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import type { CallContext } from '../../types/progress.js'
import { startParityTrace } from './traceSession.js'

export type Traced = { hash: string; index: number; result: TraceResult }

/** Traces mined transactions with the Parity renderer, collecting each transaction's result. */
async function traceMined(
  engine: Engine,
  target: TraceTarget,
  config: ParityTracerConfig,
  context?: CallContext,
): Promise<{ traced: Traced[]; loaded: LoadedBlock | undefined }> {
  const traced: Traced[] = []
  const done = (at: TraceAt, result: unknown) => {
    traced.push({ hash: at.context.transactionHash!, index: at.index, result: result as TraceResult })
  }
  const start = (at: TraceAt) => startParityTrace(engine, config, at.context, `${at.context.transactionPosition}-`)
  const run = await runTrace(
    engine,
    target,
    { start, done },
    { deadline: context?.deadline, progress: context?.progress },
  )
  return { traced, loaded: run.loaded }
}

/**
 * Every transaction of a block replayed and traced, in order, and the block (for its rewards);
 * undefined for the genesis block, which ran none.
 */
export async function traceBlockTransactions(
  engine: Engine,
  selector: BlockSelector,
  config: ParityTracerConfig,
  context?: CallContext,
): Promise<{ traced: Traced[]; loaded: LoadedBlock } | undefined> {
  try {
    const { traced, loaded } = await traceMined(engine, { kind: 'block', block: selector }, config, context)
    return { traced, loaded: loaded! }
  } catch (err) {
    if (err instanceof GenesisNotTraceableError) return undefined
    // Besu answers a block it does not have as an invalid argument (-32602).
    if (err instanceof BlockNotFoundError) throw new InvalidParamsRpcError(`invalid block param: ${err.message}`)
    throw err
  }
}

/** One mined transaction replayed and traced; undefined when the upstream does not know it. */
export async function traceMinedTransaction(
  engine: Engine,
  hash: string,
  config: ParityTracerConfig,
  context?: CallContext,
): Promise<TraceResult | undefined> {
  try {
    const { traced } = await traceMined(engine, { kind: 'transaction', hash }, config, context)
    return traced[0]?.result
  } catch (err) {
    if (err instanceof TransactionNotFoundError) return undefined
    throw err
  }
}
