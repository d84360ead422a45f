import { defineMethod } from '../defineMethod.js'
import { classifiedPool, poolContent } from './classifiedPool.js'

/**
 * txpool_content(): `{baseFee, pending, queued}`, each sender → nonce → transaction — the local
 * pool (sent through edgetrace, and the upstream's own pool, each transaction checked) sorted on
 * state proven at the head.
 */
export const content = defineMethod({
  name: 'txpool_content',
  params: [],
  run: async (engine) => poolContent(await classifiedPool(engine)),
})
