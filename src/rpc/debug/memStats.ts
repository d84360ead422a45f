import { defineMethod } from '../defineMethod.js'
import { runtimeMemory } from './runtimeStats.js'

/**
 * debug_memStats(): `{runtime: {heapUsed, heapTotal, external, arrayBuffers, rss?, heapLimit?, source},
 * cache: {entries, bytes, budget, evictionPercent, hits, misses, evictions}, persistent: {entries,
 * bytes, budget, reads, hits, writes, evictions} | null}` (bytes; persistent: the browser's
 * IndexedDB cache, null without one).
 */
export const memStats = defineMethod({
  name: 'debug_memStats',
  params: [],
  async run(engine) {
    return {
      runtime: runtimeMemory() ?? null,
      cache: engine.cache.stats(),
      persistent: engine.persistent?.store.stats() ?? null,
    }
  },
})
