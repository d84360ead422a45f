import { JsonStream } from '../jsonStream.js'
import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseAddress } from '../parsers.js'
import { classifiedPool, senderContentJson } from './classifiedPool.js'

/**
 * txpool_contentFrom(address): that sender's `{baseFee, pending, queued}`, nonce → transaction,
 * written as the reference's text (Go's sorted map keys).
 */
export const contentFrom = defineMethod({
  name: 'txpool_contentFrom',
  params: [required(parseAddress)],
  async run(engine, [address]) {
    const text = senderContentJson(await classifiedPool(engine), address.toLowerCase())
    return new JsonStream(async (write) => write(text))
  },
})
