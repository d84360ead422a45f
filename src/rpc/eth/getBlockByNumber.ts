import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseBool } from '../parsers.js'
import { parseBlockNumberOnly } from './verifiedBlockAt.js'
import { formatBlock } from './formatBlock.js'
import { verifiedBlockAt } from './verifiedBlockAt.js'

/**
 * eth_getBlockByNumber(block, fullTx): the block in geth's shape, built from verified parts only — the header
 * hashed to the block hash, transactions checked against transactionsRoot, uncles against
 * sha3Uncles, withdrawals against withdrawalsRoot. null when the upstream does not know the block.
 */
export const getBlockByNumber = defineMethod({
  name: 'eth_getBlockByNumber',
  params: [required(parseBlockNumberOnly), required(parseBool)],
  async run(engine, [at, fullTx]) {
    const verified = await verifiedBlockAt(engine, at)
    return verified && formatBlock(verified.block, fullTx, verified.stateSync)
  },
})
