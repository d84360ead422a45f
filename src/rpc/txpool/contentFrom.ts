import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseAddress } from '../parsers.js'
import { SUB_POOLS, byNonce, classifiedPool } from './classifiedPool.js'

/** txpool_contentFrom(address): that sender's `{pending, baseFee, queued}`, nonce → transaction. */
export const contentFrom = defineMethod({
  name: 'txpool_contentFrom',
  params: [required(parseAddress)],
  async run(engine, [address]) {
    const classified = await classifiedPool(engine)
    const sender = address.toLowerCase() as `0x${string}`
    return Object.fromEntries(SUB_POOLS.map((pool) => [pool, byNonce(classified[pool].get(sender) ?? [])]))
  },
})
