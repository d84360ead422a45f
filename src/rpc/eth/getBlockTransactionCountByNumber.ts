import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseBlockNumberOnly } from './verifiedBlockAt.js'
import { count } from './countInBlock.js'

/** eth_getBlockTransactionCountByNumber(number): as …ByHash, for a block by number or tag. */
export const getBlockTransactionCountByNumber = defineMethod({
  name: 'eth_getBlockTransactionCountByNumber',
  params: [required(parseBlockNumberOnly)],
  run: (engine, [selector]) => count(engine, selector, 'transactions'),
})
