import { UpstreamUnavailableError } from '../errors/upstream.js'
import type { Engine } from './createEngine.js'

/** Where a mined transaction is: its block and index. */
export type TransactionLocation = { blockHash: string; blockNumber: bigint | undefined; index: number }

type Located = { blockHash?: string | null; blockNumber?: string | null; transactionIndex?: string | null } | null

/**
 * Finds a mined transaction's block and index: eth_getTransactionByHash, and its receipt when the
 * upstream's transaction index lags behind its receipts (anvil, just after mining, still answers a
 * pending transaction without a block). Undefined when neither knows it as mined. Where it says the
 * transaction is only steers the replay, which checks the block's transaction hashes itself.
 */
export async function locateTransaction(engine: Engine, hash: string): Promise<TransactionLocation | undefined> {
  const from = (r: Located): TransactionLocation | undefined =>
    r && r.blockHash && r.transactionIndex != null
      ? { blockHash: r.blockHash.toLowerCase(), blockNumber: r.blockNumber != null ? BigInt(r.blockNumber) : undefined, index: Number(BigInt(r.transactionIndex)) }
      : undefined
  const key = `t:${hash.toLowerCase()}`
  try {
    const found =
      from(await engine.upstream.request<Located>('eth_getTransactionByHash', [hash])) ??
      from(await engine.upstream.request<Located>('eth_getTransactionReceipt', [hash]))
    // Remembered for offline replays (the upstream is always asked first: a reorg may move it).
    if (found && engine.persistent) engine.persistent.save(key, { ...found, blockNumber: found.blockNumber?.toString() ?? null }, 0)
    return found
  } catch (err) {
    if (!(err instanceof UpstreamUnavailableError) || !engine.cache.restore) throw err
    await engine.cache.restore([key])
    const kept = engine.cache.get<{ blockHash: string; blockNumber: string | null; index: number }>(key)
    if (!kept) throw err
    return { blockHash: kept.blockHash, blockNumber: kept.blockNumber === null ? undefined : BigInt(kept.blockNumber), index: kept.index }
  }
}
