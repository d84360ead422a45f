import type { CallContext } from '../../types/progress.js'
import type { RunTxResult } from '@ethereumjs/vm'
import type { Engine } from '../../exec/createEngine.js'
import { type LoadedBlock, loadBlock } from '../../exec/loadBlock.js'
import { locateTransaction } from '../../exec/locateTransaction.js'
import { replayBlock } from '../../exec/replayBlock.js'
import { replayTransactionAt } from '../../exec/replayTransaction.js'
import { InvalidParamsRpcError } from '../../errors/rpc.js'
import { BlockNotFoundError } from '../../errors/state.js'
import type { OverlayStateManager } from '../../state/createOverlayStateManager.js'
import type { ParityTracerConfig, TraceResult } from '../../tracing/tracers/parityTracer.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import { startParityTrace } from './traceSession.js'

type Traced = { hash: string; index: number; result: TraceResult }

/** The block a trace_* block argument names, loaded for replay; `undefined` for the genesis block. */
export async function loadTraceBlock(engine: Engine, selector: BlockSelector): Promise<LoadedBlock | undefined> {
  try {
    const header = await engine.headers.resolve(selector)
    if (header.number === 0n) return undefined
    return await loadBlock(engine, header.hash, header.number)
  } catch (err) {
    // Besu answers a block it does not have as an invalid argument (-32602).
    if (err instanceof BlockNotFoundError) throw new InvalidParamsRpcError(`invalid block param: ${err.message}`)
    throw err
  }
}

/** Every transaction of a block replayed and traced, in order. */
export async function traceBlockTransactions(engine: Engine, loaded: LoadedBlock, config: ParityTracerConfig, context?: CallContext): Promise<Traced[]> {
  const out: Traced[] = []
  let session: ReturnType<typeof startParityTrace> | undefined
  const hash = (i: number) => loaded.receipts[i]!.transactionHash
  await replayBlock(engine, loaded, {
    tracer: {
      begin: (i) =>
        (session = startParityTrace(
          config,
          { blockHash: loaded.header.hash, blockNumber: loaded.header.number, transactionHash: hash(i), transactionPosition: i },
          engine.options.evmTimeoutMs,
        )),
      end: async (i, result, state) => {
        out.push({ hash: hash(i), index: i, result: (await session!.finish(result, state)) as TraceResult })
      },
    },
    progress: context?.progress,
  })
  return out
}

/** One mined transaction replayed and traced; undefined when the upstream does not know it. */
export async function traceMinedTransaction(engine: Engine, hash: string, config: ParityTracerConfig): Promise<TraceResult | undefined> {
  const where = await locateTransaction(engine, hash)
  if (!where) return undefined
  const blockNumber = where.blockNumber ?? (await engine.headers.byHash(where.blockHash)).number
  const session = startParityTrace(
    config,
    { blockHash: where.blockHash, blockNumber, transactionHash: hash, transactionPosition: where.index },
    engine.options.evmTimeoutMs,
  )
  let ran: { result: RunTxResult; state: OverlayStateManager } | undefined
  await replayTransactionAt(engine, hash, where, {
    begin: () => session,
    end: async (result, state) => {
      ran = { result, state }
    },
  })
  return (await session.finish(ran!.result, ran!.state)) as TraceResult
}
