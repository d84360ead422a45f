import { UpstreamUnavailableError } from '../errors/upstream.js'
import type { Engine } from './createEngine.js'
import { cacheKeys } from '../utils/cacheKeys.js'

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
    r?.blockHash && r.transactionIndex != null
      ? {
          blockHash: r.blockHash.toLowerCase(),
          blockNumber: r.blockNumber != null ? BigInt(r.blockNumber) : undefined,
          index: Number(BigInt(r.transactionIndex)),
        }
      : undefined
  const key = cacheKeys.transaction(hash.toLowerCase())
  type Kept = { blockHash: string; blockNumber: string | null; index: number }
  const fromKept = (k: Kept): TransactionLocation => ({
    blockHash: k.blockHash,
    blockNumber: k.blockNumber === null ? undefined : BigInt(k.blockNumber),
    index: k.index,
  })
  // Where a transaction of a final block is (reorgDepth below the highest header seen) is asked once.
  const known = engine.cache.get<Kept>(key)
  if (known && known.blockNumber !== null && engine.headers.isFinal(BigInt(known.blockNumber))) return fromKept(known)
  try {
    const found =
      from(await engine.upstream.request<Located>('eth_getTransactionByHash', [hash])) ??
      from(await engine.upstream.request<Located>('eth_getTransactionReceipt', [hash]))
    // Kept (also for offline replays, where the upstream cannot be asked): a reorg may still move
    // a transaction of a recent block, so those are asked again next time.
    if (found)
      engine.cache.set(key, { ...found, blockNumber: found.blockNumber?.toString() ?? null } satisfies Kept, 160)
    return found
  } catch (err) {
    if (!(err instanceof UpstreamUnavailableError)) throw err
    if (engine.cache.restore) await engine.cache.restore([key])
    const kept = engine.cache.get<Kept>(key)
    if (!kept) throw err
    return fromKept(kept)
  }
}
