import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseInteger } from './runtimeStats.js'

/**
 * debug_setGCPercent(percent): how eagerly the cache evicts (down to budget × 100/(100+percent) once
 * over budget; negative: never); returns the previous setting (default 0: to the budget).
 */
export const setGCPercent = defineMethod({
  name: 'debug_setGCPercent',
  params: [required(parseInteger)],
  async run(engine, [percent]) {
    const previous = engine.cache.stats().evictionPercent
    engine.cache.setEvictionPercent(percent)
    return previous
  },
})
