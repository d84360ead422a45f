import { defineMethod } from '../defineMethod.js'

/** debug_freeOSMemory(): empties the cache, and runs the collector where the runtime exposes one (Node with --expose-gc). */
export const freeOSMemory = defineMethod({
  name: 'debug_freeOSMemory',
  params: [],
  async run(engine) {
    engine.cache.clear()
    const gc = (globalThis as unknown as { gc?: () => void }).gc
    gc?.()
    return null
  },
})
