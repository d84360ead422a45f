export type LruCacheStats = {
  entries: number
  bytes: number
  budget: number
  hits: number
  misses: number
  evictions: number
}

export type LruCache = {
  get<value>(key: string): value | undefined
  /** `bytes` is the entry's estimated footprint, key included. */
  set(key: string, value: unknown, bytes: number): void
  has(key: string): boolean
  delete(key: string): void
  clear(): void
  /** Budget in bytes; shrinking it evicts at once. A budget ≤ 0 disables eviction. */
  setBudget(bytes: number): void
  stats(): LruCacheStats
}

/**
 * One memory budget for every verified item (accounts, slots, code, headers): least recently used
 * entries are evicted first. Keys carry their kind as a prefix, values are immutable (keyed by
 * hashes), so entries never go stale, only cold.
 */
export function createLruCache(budget: number): LruCache {
  const map = new Map<string, { value: unknown; bytes: number }>()
  let bytes = 0
  let hits = 0
  let misses = 0
  let evictions = 0

  function evict() {
    if (budget <= 0) return
    for (const [key, entry] of map) {
      if (bytes <= budget) break
      map.delete(key)
      bytes -= entry.bytes
      evictions++
    }
  }

  return {
    get<value>(key: string): value | undefined {
      const entry = map.get(key)
      if (entry === undefined) {
        misses++
        return undefined
      }
      hits++
      map.delete(key)
      map.set(key, entry)
      return entry.value as value
    },
    set(key, value, size) {
      const old = map.get(key)
      if (old) {
        bytes -= old.bytes
        map.delete(key)
      }
      map.set(key, { value, bytes: size })
      bytes += size
      evict()
    },
    has: (key) => map.has(key),
    delete(key) {
      const old = map.get(key)
      if (old) {
        bytes -= old.bytes
        map.delete(key)
      }
    },
    clear() {
      map.clear()
      bytes = 0
    },
    setBudget(next) {
      budget = next
      evict()
    },
    stats: () => ({ entries: map.size, bytes, budget, hits, misses, evictions }),
  }
}
