import { JsonStream } from '../jsonStream.js'
import { defineMethod } from '../defineMethod.js'
import { classifiedPool, poolContentJson } from './classifiedPool.js'

/**
 * txpool_content(): `{baseFee, pending, queued}`, each sender → nonce → transaction — the local
 * pool (sent through edgetrace, and the upstream's own pool, each transaction checked) sorted on
 * state proven at the head. Written as the reference's text (Go's sorted map keys at every level).
 */
export const content = defineMethod({
  name: 'txpool_content',
  params: [],
  async run(engine) {
    const text = poolContentJson(await classifiedPool(engine))
    return new JsonStream(async (write) => write(text))
  },
})
