import { rpcResult, waitForReceipt } from './rpc.js'

/**
 * Sends the transactions to anvil with automine off and mines them together in one block
 * (evm_mine); automine is on again after, whatever happened. Their receipts, in order (each waited
 * for up to 4 s).
 */
export async function mineTogether(url: string, txs: Record<string, unknown>[]): Promise<any[]> {
  await rpcResult(url, 'evm_setAutomine', [false])
  const hashes: string[] = []
  try {
    for (const tx of txs) hashes.push(await rpcResult(url, 'eth_sendTransaction', [tx]))
    await rpcResult(url, 'evm_mine')
  } finally {
    await rpcResult(url, 'evm_setAutomine', [true])
  }
  return Promise.all(hashes.map((hash) => waitForReceipt(url, hash, 200)))
}
