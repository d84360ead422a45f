import { defineMethod } from '../defineMethod.js'
import { gcSeen } from './runtimeStats.js'

/**
 * debug_gcStats(): `{numGC, pauseTotalMs, lastPauseMs, lastGC}` from the runtime's collector reports
 * (null where the runtime gives none, as browsers), and the cache's `evictions`.
 */
export const gcStats = defineMethod({
  name: 'debug_gcStats',
  params: [],
  async run(engine) {
    return {
      numGC: gcSeen.observed ? gcSeen.count : null,
      pauseTotalMs: gcSeen.observed ? Math.round(gcSeen.totalPauseMs * 1000) / 1000 : null,
      lastPauseMs: gcSeen.observed ? Math.round(gcSeen.lastPauseMs * 1000) / 1000 : null,
      lastGC: gcSeen.lastAt !== undefined ? new Date(gcSeen.lastAt).toISOString() : null,
      evictions: engine.cache.stats().evictions,
    }
  },
})
