import type { RunTxResult } from '@ethereumjs/vm'
import { bytesToHex } from '@ethereumjs/util'
import { TransactionLocationError, TransactionNotFoundError } from '../errors/replay.js'
import type { Engine } from './createEngine.js'
import { type TransactionLocation, locateTransaction } from './locateTransaction.js'
import type { Deadline } from '../types/deadline.js'
import { type LoadedBlock, loadBlock } from './loadBlock.js'
import { type ReplayTracer, type ReplayedBlock, replayBlock } from './replayBlock.js'
import { cacheKeys } from '../utils/cacheKeys.js'

export type ReplayTransactionOptions = {
  /** Traces the replay, given the loaded block and the transaction's index in it (runTrace's). */
  tracer?: ((loaded: LoadedBlock, index: number) => ReplayTracer) | undefined
  /** The request's one deadline (see replayBlock). */
  deadline?: Deadline | undefined
}

export type ReplayedTransaction = ReplayedBlock & {
  loaded: LoadedBlock
  index: number
  /** The result of the transaction itself (the last one run). */
  result: RunTxResult
}

/**
 * Replays a mined transaction: the state after its block's parent, the block's system calls, the
 * transactions before it, then it — every step verified (see loadBlock and replayBlock).
 */
export async function replayTransaction(
  engine: Engine,
  txHash: string,
  options?: ReplayTransactionOptions,
): Promise<ReplayedTransaction> {
  const where = await locateTransaction(engine, txHash)
  if (!where) throw new TransactionNotFoundError(txHash)
  return replayTransactionAt(engine, txHash, where, options)
}

/** replayTransaction when the transaction's block and index are already known. */
export async function replayTransactionAt(
  engine: Engine,
  txHash: string,
  where: TransactionLocation,
  { tracer, deadline }: ReplayTransactionOptions = {},
): Promise<ReplayedTransaction> {
  const loaded = await loadBlock(engine, where.blockHash, where.blockNumber)
  const index = where.index
  const hash = txHash.toLowerCase()
  if (loaded.receipts[index]?.transactionHash !== hash) {
    // The block is verified, the upstream's word on where the transaction is was not: say which lied.
    engine.cache.delete(cacheKeys.transaction(hash))
    const actual = loaded.block.transactions.findIndex((tx) => bytesToHex(tx.hash()) === hash)
    throw new TransactionLocationError(
      hash,
      { blockHash: loaded.header.hash, blockNumber: loaded.header.number, index },
      actual < 0 ? undefined : actual,
    )
  }
  const replayed = await replayBlock(engine, loaded, { count: index + 1, tracer: tracer?.(loaded, index), deadline })
  return { ...replayed, loaded, index, result: replayed.results[index]! }
}
