export type LruCacheStats = {
  entries: number
  bytes: number
  budget: number
  evictionPercent: number
  hits: number
  misses: number
  evictions: number
}

/**
 * A second, slower tier under the memory cache (IndexedDB in the browser): it is told of every
 * entry the cache takes in and keeps those it can persist; `load` returns, decoded, the entries
 * it holds among `keys`.
 */
export type CacheBacking = {
  load(keys: readonly string[]): Promise<Map<string, { value: unknown; bytes: number }>>
  save(key: string, value: unknown, bytes: number): void
  /** Whether it keeps the trie nodes of verified proofs (a shared tier does; a browser's IndexedDB does not). Default: no. */
  readonly keepsTrieNodes?: boolean
}

export type LruCache = {
  get<value>(key: string): value | undefined
  /** `bytes` is the entry's estimated footprint, key included. */
  set(key: string, value: unknown, bytes: number): void
  has(key: string): boolean
  /** The keys in memory, least recently used first (a snapshot: reading it touches nothing). */
  keys(): string[]
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
  /**
   * With a backing tier: brings the keys it holds (and memory lacks) into memory; callers await it
   * before asking the upstream. Undefined without a backing, so the memory-only path stays synchronous.
   */
  restore: ((keys: readonly string[]) => Promise<void>) | undefined
  /**
   * With a backing tier: hands it an entry without keeping it in memory (what only the backing
   * wants, e.g. a proof's trie nodes for the shared tier). Undefined without a backing.
   */
  persist: ((key: string, value: unknown, bytes: number) => void) | undefined
  /**
   * Whether the backing keeps the trie nodes of verified proofs: without one that does, a proof's
   * nodes are not even hashed for their keys (createProvenCache).
   */
  readonly keepsTrieNodes: boolean
}

/**
 * One memory budget for every verified item (accounts, slots, code, headers): least recently used
 * entries are evicted first. Keys carry their kind as a prefix, values are immutable (keyed by
 * hashes), so entries never go stale, only cold.
 */
export function createLruCache(budget: number, backing?: CacheBacking): LruCache {
  const map = new Map<string, { value: unknown; bytes: number }>()
  let bytes = 0
  let hits = 0
  let misses = 0
  let evictions = 0
  let percent = 0

  function put(key: string, value: unknown, size: number) {
    const old = map.get(key)
    if (old) {
      bytes -= old.bytes
      map.delete(key)
    }
    map.set(key, { value, bytes: size })
    bytes += size
    evict()
  }

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
      put(key, value, size)
      backing?.save(key, value, size)
    },
    has: (key) => map.has(key),
    keys: () => [...map.keys()],
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
    restore: backing
      ? async (keys) => {
          const wanted = keys.filter((k) => !map.has(k))
          if (wanted.length === 0) return
          for (const [key, { value, bytes: size }] of await backing.load(wanted))
            if (!map.has(key)) put(key, value, size)
        }
      : undefined,
    persist: backing ? (key, value, size) => backing.save(key, value, size) : undefined,
    keepsTrieNodes: backing?.keepsTrieNodes === true,
  }
}
