import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseInteger } from './runtimeStats.js'

/** debug_setMemoryLimit(bytes): the budget of the verified-state cache (see runtimeStats); returns the previous one. */
export const setMemoryLimit = defineMethod({
  name: 'debug_setMemoryLimit',
  params: [required(parseInteger)],
  async run(engine, [limit]) {
    const previous = engine.cache.stats().budget
    engine.cache.setBudget(limit)
    return previous
  },
})
