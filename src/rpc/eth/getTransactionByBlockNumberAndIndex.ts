import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseBlockNumberOnly, parseIndex } from './verifiedBlockAt.js'
import { transactionAt } from './blockMember.js'

/** eth_getTransactionByBlockNumberAndIndex(number, index): as …ByBlockHashAndIndex, by number or tag. */
export const getTransactionByBlockNumberAndIndex = defineMethod({
  name: 'eth_getTransactionByBlockNumberAndIndex',
  params: [required(parseBlockNumberOnly), required(parseIndex)],
  run: (engine, [selector, index]) => transactionAt(engine, selector, index),
})
