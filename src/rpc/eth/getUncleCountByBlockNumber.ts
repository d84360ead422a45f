import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseBlockNumberOnly } from './verifiedBlockAt.js'
import { count } from './countInBlock.js'

/** eth_getUncleCountByBlockNumber(number): as …ByBlockHash, for a block by number or tag. */
export const getUncleCountByBlockNumber = defineMethod({
  name: 'eth_getUncleCountByBlockNumber',
  params: [required(parseBlockNumberOnly)],
  run: (engine, [selector]) => count(engine, selector, 'uncles'),
})
