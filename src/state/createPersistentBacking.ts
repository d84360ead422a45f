import { cacheKeyKind } from '../utils/cacheKeys.js'
import type { CacheBacking } from '../utils/createLruCache.js'
import type { PersistentCodec } from './createPersistentCodec.js'

export type PersistentStoreStats = {
  entries: number
  bytes: number
  budget: number
  reads: number
  hits: number
  writes: number
  evictions: number
}

/** A persistent key-value store with a size budget (IndexedDB in the browser). */
export type PersistentStore = {
  getMany(keys: readonly string[]): Promise<unknown[]>
  /** Each entry with its estimated size in bytes; least recently used entries go once over budget. */
  setMany(entries: readonly (readonly [key: string, value: unknown, bytes: number])[]): Promise<void>
  clear(): Promise<void>
  stats(): PersistentStoreStats
  /** Waits for pending bookkeeping (recency) to be written. */
  flush(): Promise<void>
  /** Whether the store keeps what is saved under this key (default: every key the codec persists but trie nodes). */
  accepts?(key: string): boolean
  /**
   * Whether the store keeps the trie nodes of verified proofs (the shared tier walks them): only then
   * is a proof's every node hashed for its key and handed over (see createProvenCache). Default: no.
   */
  readonly keepsTrieNodes?: boolean
  /** Told of an entry it gave back that did not decode (did not check out against its key). */
  rejected?(key: string): void
  /** What the tier is, as erigon_nodeInfo names it: `indexeddb` (the browser's), `shared` (Redis), … */
  readonly tier?: string
}

export type PersistentBacking = CacheBacking & {
  /** Resolves once every entry saved so far is written. */
  flush(): Promise<void>
  readonly store: PersistentStore
  /** Reads or writes that failed (a full or unavailable store): the memory cache goes on without it. */
  readonly failures: () => number
  /**
   * Told by a reader of an entry `load` gave back that did not check out where it is used (a raw
   * block whose header or transactions do not verify): the store is told (a shared tier deletes it
   * and counts it), and the reader asks the upstream instead.
   */
  reject(key: string): void
}

/**
 * Glues the memory cache to a persistent store: entries the codec persists are written shortly
 * after the cache takes them in (one write per burst), and loads asked for in the same tick are
 * read in one go. A store that fails (quota, private mode) degrades to memory only; it never fails
 * a request.
 */
export function createPersistentBacking({
  store,
  codec,
}: {
  store: PersistentStore
  codec: PersistentCodec
}): PersistentBacking {
  let pendingWrites = new Map<string, readonly [string, unknown, number]>()
  let writing: Promise<void> = Promise.resolve()
  /** The next burst's write, queued once the timer fires (undefined when none is pending). */
  let scheduled: Promise<void> | undefined
  let failures = 0

  let pendingLoads: {
    keys: readonly string[]
    resolve: (m: Map<string, { value: unknown; bytes: number }>) => void
  }[] = []

  function scheduleWrite() {
    scheduled ??= new Promise<void>((resolve) =>
      setTimeout(() => {
        scheduled = undefined
        const batch = [...pendingWrites.values()]
        pendingWrites = new Map()
        writing = writing
          .then(() => store.setMany(batch))
          .catch(() => {
            failures++
          })
        resolve()
      }, 0),
    )
  }

  async function readLoads() {
    const loads = pendingLoads
    pendingLoads = []
    const keys = [...new Set(loads.flatMap((l) => l.keys))]
    const found = new Map<string, { value: unknown; bytes: number }>()
    try {
      const values = await store.getMany(keys)
      keys.forEach((key, i) => {
        const stored = values[i]
        if (stored === undefined) return
        let value: unknown
        try {
          value = codec.decode(key, stored)
        } catch {
          value = undefined
        }
        if (value !== undefined) found.set(key, { value, bytes: estimateBytes(key, stored) })
        else store.rejected?.(key)
      })
    } catch {
      failures++
    }
    for (const l of loads) l.resolve(found)
  }

  const keepsTrieNodes = store.keepsTrieNodes === true
  return {
    store,
    failures: () => failures,
    keepsTrieNodes,
    reject: (key) => store.rejected?.(key),
    load(keys) {
      return new Promise((resolve) => {
        if (pendingLoads.length === 0) queueMicrotask(() => void readLoads())
        pendingLoads.push({ keys, resolve })
      })
    },
    save(key, value, bytes) {
      // A store that keeps only some kinds is spared encoding the others (a header's RLP, an account's).
      // Trie nodes (the shared tier's) go only to a store that keeps them.
      if (cacheKeyKind(key) === 'trieNode' ? !keepsTrieNodes : store.accepts && !store.accepts(key)) return
      let stored: unknown
      try {
        stored = codec.encode(key, value)
      } catch {
        return
      }
      if (stored === undefined) return
      pendingWrites.set(key, [key, stored, Math.max(bytes, estimateBytes(key, stored))])
      scheduleWrite()
    },
    async flush() {
      await scheduled
      await writing
      await store.flush()
    },
  }
}

/** A stored entry's rough size: its bytes, strings and numbers, plus the key and some overhead. */
export function estimateBytes(key: string, stored: unknown): number {
  return 64 + key.length * 2 + sizeOf(stored, 0)
}

function sizeOf(v: unknown, depth: number): number {
  if (v === null || v === undefined) return 8
  if (v instanceof Uint8Array) return v.byteLength + 16
  if (typeof v === 'string') return v.length * 2
  if (typeof v === 'number' || typeof v === 'boolean') return 8
  if (typeof v === 'bigint') return 16
  if (depth > 8) return 64
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + sizeOf(x, depth + 1), 16)
  if (typeof v === 'object') {
    let n = 16
    for (const [k, x] of Object.entries(v)) n += k.length * 2 + sizeOf(x, depth + 1)
    return n
  }
  return 16
}
