import type { MessagePort } from 'node:worker_threads'
import type { PersistentStore } from '../../state/createPersistentBacking.js'
import { type CacheKeyKind, cacheKeyKind } from '../../utils/cacheKeys.js'

/** What a worker's store asks of the main thread's cache, and what it is answered. */
export type PortStoreRequest =
  | { id: number; op: 'get'; keys: readonly string[] }
  | { op: 'set'; entries: readonly (readonly [string, unknown, number])[] }
export type PortStoreReply = { id: number; values: unknown[] }

/**
 * What a worker reads from the main cache: headers and final block numbers the main daemon holds
 * (it resolved the range's ends) and contract code.
 */
const READ = new Set<CacheKeyKind | 'unknown'>(['header', 'number', 'code'])
/**
 * What a worker hands to the others through the main cache: contract code, which several chunks of
 * a range run. Headers and proofs are per block, and each block is traced by one worker only:
 * they stay where they are (decoding them on the main thread would cost more than it saves).
 */
const WRITE = new Set<CacheKeyKind | 'unknown'>(['code'])

/**
 * A worker thread's persistent tier: the main daemon's cache, reached over the MessagePort of the
 * task being run (`port()`; no port between tasks: reads find nothing, writes are dropped). Items
 * cross in their persisted form and are decoded (headers re-hashed) on the other side.
 */
export function createPortStore(port: () => MessagePort | undefined): PersistentStore {
  let nextId = 0
  let reads = 0
  let hits = 0
  let writes = 0
  return {
    async getMany(keys) {
      const p = port()
      const wanted = keys.filter((k) => READ.has(cacheKeyKind(k)))
      if (!p || wanted.length === 0) return keys.map(() => undefined)
      const id = nextId++
      const values = await new Promise<unknown[]>((resolve) => {
        const onMessage = (reply: PortStoreReply) => {
          if (reply.id !== id) return
          p.off('message', onMessage)
          p.off('close', onClose)
          resolve(reply.values)
        }
        const onClose = () => {
          p.off('message', onMessage)
          resolve([])
        }
        p.on('message', onMessage)
        p.on('close', onClose)
        p.postMessage({ id, op: 'get', keys: wanted } satisfies PortStoreRequest)
      })
      reads += keys.length
      const found = new Map(wanted.map((k, i) => [k, values[i]]))
      const out = keys.map((k) => found.get(k))
      hits += out.filter((v) => v !== undefined).length
      return out
    },
    async setMany(entries) {
      const shared = entries.filter(([k]) => WRITE.has(cacheKeyKind(k)))
      const p = port()
      if (!p || shared.length === 0) return
      writes += shared.length
      p.postMessage({ op: 'set', entries: shared } satisfies PortStoreRequest)
    },
    accepts: (key) => WRITE.has(cacheKeyKind(key)),
    async clear() {},
    stats: () => ({ entries: 0, bytes: 0, budget: 0, reads, hits, writes, evictions: 0 }),
    async flush() {},
  }
}
