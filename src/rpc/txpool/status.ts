import { quantity } from '../../utils/hex.js'
import { defineMethod } from '../defineMethod.js'
import { SUB_POOLS_SORTED, classifiedPool } from './classifiedPool.js'

/** txpool_status(): how many transactions each sub-pool holds, as quantities (keys in Go's map order). */
export const status = defineMethod({
  name: 'txpool_status',
  params: [],
  async run(engine) {
    const classified = await classifiedPool(engine)
    const count = (pool: (typeof SUB_POOLS_SORTED)[number]) =>
      [...classified[pool].values()].reduce((n, txs) => n + txs.length, 0)
    return Object.fromEntries(SUB_POOLS_SORTED.map((pool) => [pool, quantity(BigInt(count(pool)))]))
  },
})
