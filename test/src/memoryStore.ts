import type { PersistentStore } from '../../src/state/createPersistentBacking.js'

/** A persistent store in memory, standing in for IndexedDB across two starts of a daemon. */
export function memoryStore(): PersistentStore {
  const map = new Map<string, unknown>()
  return {
    getMany: async (keys) => keys.map((k) => map.get(k)),
    setMany: async (entries) => {
      for (const [k, v] of entries) map.set(k, v)
    },
    clear: async () => map.clear(),
    stats: () => ({ entries: map.size, bytes: 0, budget: 0, reads: 0, hits: 0, writes: 0, evictions: 0 }),
    flush: async () => {},
  }
}
