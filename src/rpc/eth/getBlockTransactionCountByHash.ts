import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseHash } from '../parsers.js'
import { count } from './countInBlock.js'

/** eth_getBlockTransactionCountByHash(hash): the number of transactions the verified block holds; null when unknown. */
export const getBlockTransactionCountByHash = defineMethod({
  name: 'eth_getBlockTransactionCountByHash',
  params: [required(parseHash)],
  run: (engine, [hash]) => count(engine, { kind: 'hash', hash, requireCanonical: false }, 'transactions'),
})
