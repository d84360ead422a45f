import { rejoinAfterTimeout } from './rejoinAfterTimeout.js'
import { createSingleFlight } from '../utils/createSingleFlight.js'
import type { LruCache } from '../utils/createLruCache.js'

/**
 * Reads through the cache's tiers: memory, then the persistent tier when there is one, then
 * `load` (which asks the upstream and caches what it proves). Concurrent misses of one key share
 * one load, so one request. A cached value is never undefined (undefined is a miss).
 */
export function createReadThrough(cache: LruCache) {
  const once = createSingleFlight({ rejoin: rejoinAfterTimeout })
  return async function read<value>(key: string, load: () => Promise<value>): Promise<value> {
    const hit = cache.get<value>(key)
    if (hit !== undefined) return hit
    return once(key, async () => {
      if (cache.restore) {
        await cache.restore([key])
        const restored = cache.get<value>(key)
        if (restored !== undefined) return restored
      }
      return load()
    })
  }
}
