import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseHash } from '../parsers.js'
import { parseIndex } from './verifiedBlockAt.js'
import { transactionAt, byHash } from './blockMember.js'

/** eth_getTransactionByBlockHashAndIndex(hash, index): a transaction of the verified block; null when there is none. */
export const getTransactionByBlockHashAndIndex = defineMethod({
  name: 'eth_getTransactionByBlockHashAndIndex',
  params: [required(parseHash), required(parseIndex)],
  run: (engine, [hash, index]) => transactionAt(engine, byHash(hash), index),
})
