import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseHash } from '../parsers.js'
import { count } from './countInBlock.js'

/** eth_getUncleCountByBlockHash(hash): the number of uncles the verified block holds; null when unknown. */
export const getUncleCountByBlockHash = defineMethod({
  name: 'eth_getUncleCountByBlockHash',
  params: [required(parseHash)],
  run: (engine, [hash]) => count(engine, { kind: 'hash', hash, requireCanonical: false }, 'uncles'),
})
