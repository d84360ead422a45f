import { type UseStore, clear, createStore, delMany, getMany, promisifyRequest, setMany } from 'idb-keyval'
import type { PersistentStore, PersistentStoreStats } from '../state/createPersistentBacking.js'

export type CreateIdbStoreParameters = {
  /** IndexedDB database name; a second database `${name}-index` keeps sizes and recency. */
  name: string
  /** Size budget in bytes (default 256 MiB); least recently used entries are deleted past it. */
  budgetBytes?: number
  /** Once over budget, evict down to this fraction of it (default 0.9), so evictions come in bursts. */
  evictTo?: number
}

type IndexEntry = [bytes: number, usedAt: number]

/** Index entries read per step when a store opens. */
const INDEX_PAGE = 5000

/**
 * A budgeted key-value store in IndexedDB (idb-keyval): values in one database, each key's size and
 * last use in another. The index is read once when the store opens; uses are written back lazily.
 * Survives reloads; shared by every page and worker of the origin that opens the same name.
 */
export async function createIdbStore({
  name,
  budgetBytes = 256 * 1024 * 1024,
  evictTo = 0.9,
}: CreateIdbStoreParameters): Promise<PersistentStore> {
  const values: UseStore = createStore(name, 'entries')
  const indexStore: UseStore = createStore(`${name}-index`, 'index')
  const index = new Map<string, IndexEntry>()
  let total = 0
  // The index (sizes and recency) is read in the background, a page at a time: a big cache takes
  // about 1 s per 100,000 entries to list, and reads need not wait for it — only writes and
  // eviction do.
  let indexLoaded = false
  const indexReady = (async () => {
    let after: string | undefined
    for (;;) {
      const range = after === undefined ? null : IDBKeyRange.lowerBound(after, true)
      const [keys, values] = await indexStore('readonly', (store) =>
        Promise.all([
          promisifyRequest(store.getAllKeys(range, INDEX_PAGE)),
          promisifyRequest(store.getAll(range, INDEX_PAGE)),
        ]),
      )
      keys.forEach((key, i) => {
        const entry = values[i] as IndexEntry
        index.set(key as string, entry)
        total += entry[0]
      })
      if (keys.length < INDEX_PAGE) break
      after = keys.at(-1) as string
      await new Promise((r) => setTimeout(r, 0)) // reads go through between pages
    }
  })().then(
    () => void (indexLoaded = true),
    () => void (indexLoaded = true),
  )
  const stats: PersistentStoreStats = {
    entries: 0,
    bytes: 0,
    budget: budgetBytes,
    reads: 0,
    hits: 0,
    writes: 0,
    evictions: 0,
  }
  let touched = new Set<string>()
  let chain: Promise<unknown> = indexReady
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn, fn)
    chain = next.catch(() => undefined)
    return next
  }

  async function evict() {
    if (total <= budgetBytes) return
    const target = budgetBytes * evictTo
    const oldest = [...index.entries()].sort((a, b) => a[1][1] - b[1][1])
    const gone: string[] = []
    for (const [key, [bytes]] of oldest) {
      if (total <= target) break
      index.delete(key)
      touched.delete(key)
      total -= bytes
      gone.push(key)
    }
    stats.evictions += gone.length
    await delMany(gone, values)
    await delMany(gone, indexStore)
  }

  async function writeTouched() {
    if (touched.size === 0) return
    const keys = [...touched].filter((k) => index.has(k))
    touched = new Set()
    await setMany(
      keys.map((k) => [k, index.get(k)!]),
      indexStore,
    )
  }

  return {
    tier: 'indexeddb',
    async getMany(keys) {
      stats.reads += keys.length
      const known = indexLoaded ? keys.filter((k) => index.has(k)) : [...keys]
      if (known.length === 0) return keys.map(() => undefined)
      const got = await getMany(known, values)
      const byKey = new Map(known.map((k, i) => [k, got[i]]))
      const now = Date.now()
      return keys.map((k) => {
        const v = byKey.get(k)
        if (v === undefined) return undefined
        stats.hits++
        const entry = index.get(k)
        if (entry) {
          entry[1] = now
          touched.add(k)
        }
        return v
      })
    },
    setMany(batch) {
      return serial(async () => {
        if (batch.length === 0) return
        const now = Date.now()
        for (const [key, , bytes] of batch) {
          const old = index.get(key)
          if (old) total -= old[0]
          index.set(key, [bytes, now])
          total += bytes
          touched.delete(key)
        }
        await setMany(
          batch.map(([k, v]) => [k, v]),
          values,
        )
        await setMany(
          batch.map(([k]) => [k, index.get(k)!]),
          indexStore,
        )
        stats.writes += batch.length
        await evict()
        await writeTouched()
        stats.entries = index.size
        stats.bytes = total
      })
    },
    clear() {
      return serial(async () => {
        index.clear()
        touched.clear()
        total = 0
        await clear(values)
        await clear(indexStore)
        stats.entries = 0
        stats.bytes = 0
      })
    },
    stats: () => ({ ...stats, entries: index.size, bytes: total }),
    flush: () => serial(writeTouched),
  }
}
