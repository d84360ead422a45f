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
  const byTx = from(await engine.upstream.request<Located>('eth_getTransactionByHash', [hash]))
  if (byTx) return byTx
  return from(await engine.upstream.request<Located>('eth_getTransactionReceipt', [hash]))
}
