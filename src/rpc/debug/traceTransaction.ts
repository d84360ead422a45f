import type { RunTxResult } from '@ethereumjs/vm'
import type { Engine } from '../../exec/createEngine.js'
import { locateTransaction } from '../../exec/locateTransaction.js'
import { replayTransactionAt } from '../../exec/replayTransaction.js'
import { TransactionNotFoundError } from '../../errors/replay.js'
import { ServerRpcError } from '../../errors/rpc.js'
import type { OverlayStateManager } from '../../state/createOverlayStateManager.js'
import { parseTraceConfig } from '../parseTraceConfig.js'
import type { TxTraceSession } from '../../tracing/startTxTrace.js'
import { parseHash } from '../parsers.js'
import { optional, parseParams, required } from '../params.js'
import { traceOne } from './traceRuns.js'

/**
 * debug_traceTransaction(hash, config?): the mined transaction replayed on verified state (its
 * block's earlier transactions first, each checked against its receipt) and traced.
 */
export async function traceTransaction(engine: Engine, params: unknown): Promise<unknown> {
  const [hash, plan] = parseParams(params, [required(parseHash), optional(parseTraceConfig)])
  const config = plan ?? parseTraceConfig({})
  const where = await locateTransaction(engine, hash)
  if (!where) throw new ServerRpcError('transaction not found')
  const context = {
    blockHash: where.blockHash,
    blockNumber: where.blockNumber ?? 0n,
    transactionHash: hash,
    transactionPosition: where.index,
  }
  return traceOne(config, context, async (session: TxTraceSession) => {
    let ran: { result: RunTxResult; state: OverlayStateManager } | undefined
    try {
      await replayTransactionAt(engine, hash, where, {
        begin: () => session,
        end: async (result, state) => {
          ran = { result, state }
        },
      })
    } catch (err) {
      if (err instanceof TransactionNotFoundError) throw new ServerRpcError('transaction not found')
      throw err
    }
    return ran!
  })
}
