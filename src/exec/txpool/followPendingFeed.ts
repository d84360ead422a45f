import type { Engine } from '../createEngine.js'
import { takeUpstreamTransaction } from './readUpstreamPool.js'

/**
 * Follows the upstream's pending-transaction feed over WebSocket (`eth_subscribe`
 * `newPendingTransactions`, full transactions where the upstream offers them, else hashes looked
 * up one by one): each transaction checked as the pool's read-in checks it (takeUpstreamTransaction)
 * before it is kept. Renewed when the socket reopens. Resolves with the unsubscribe, or undefined
 * when the upstream has no feed (an HTTP upstream, or one that refuses the subscription).
 */
const following = new WeakSet<Engine>()

/**
 * Starts following the upstream's pending feed for this engine once (the txpool namespace and
 * newPendingTransactions subscriptions both want it); later calls do nothing.
 */
export function ensurePendingFeed(engine: Engine): void {
  if (following.has(engine)) return
  following.add(engine)
  void followPendingFeed(engine).catch(() => undefined)
}

export async function followPendingFeed(engine: Engine): Promise<(() => void) | undefined> {
  const subscribe = engine.upstream.subscribe
  if (!subscribe) return undefined
  const take = async (result: unknown) => {
    try {
      const head = await engine.headers.resolve({ kind: 'tag', tag: 'latest' })
      const common = engine.rules.commonFor(head.number + 1n, head.header.timestamp + 1n)
      const json =
        typeof result === 'string'
          ? await engine.upstream.request<Record<string, unknown> | null>('eth_getTransactionByHash', [result])
          : (result as Record<string, unknown> | null)
      if (json && typeof json === 'object' && json.blockHash == null)
        await takeUpstreamTransaction(engine, json, common)
    } catch {
      // A notification that cannot be taken in now is left to the next read of the upstream's pool.
    }
  }
  const onData = (result: unknown) => void take(result)
  try {
    return await subscribe(['newPendingTransactions', true], onData)
  } catch {
    return subscribe(['newPendingTransactions'], onData).catch(() => undefined)
  }
}
