export type LruCacheStats = {
  entries: number
  bytes: number
  budget: number
  evictionPercent: number
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
  /**
   * How eagerly to evict, as Go's GOGC percentage: once over budget, entries are evicted down to
   * budget × 100 / (100 + percent) (100: to half the budget; 0: to the budget itself, the default);
   * a negative value disables eviction.
   */
  setEvictionPercent(percent: number): void
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
  let percent = 0

  function evict() {
    if (budget <= 0 || percent < 0 || bytes <= budget) return
    const target = (budget * 100) / (100 + percent)
    for (const [key, entry] of map) {
      if (bytes <= target) break
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
    setEvictionPercent(next) {
      percent = next
      evict()
    },
    stats: () => ({ entries: map.size, bytes, budget, evictionPercent: percent, hits, misses, evictions }),
  }
}
