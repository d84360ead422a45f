import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseBlockNumberOnly, parseIndex } from './verifiedBlockAt.js'
import { uncleAt } from './blockMember.js'

/** eth_getUncleByBlockNumberAndIndex(number, index): as …ByBlockHashAndIndex, by number or tag. */
export const getUncleByBlockNumberAndIndex = defineMethod({
  name: 'eth_getUncleByBlockNumberAndIndex',
  params: [required(parseBlockNumberOnly), required(parseIndex)],
  run: (engine, [selector, index]) => uncleAt(engine, selector, index),
})
