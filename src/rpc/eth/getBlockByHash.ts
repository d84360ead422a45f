import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseBool, parseHash } from '../parsers.js'
import { formatBlock } from './formatBlock.js'
import { verifiedBlockAt } from './verifiedBlockAt.js'

/**
 * eth_getBlockByHash(block, fullTx): the block in geth's shape, built from verified parts only — the header
 * hashed to the block hash, transactions checked against transactionsRoot, uncles against
 * sha3Uncles, withdrawals against withdrawalsRoot. null when the upstream does not know the block.
 */
export const getBlockByHash = defineMethod({
  name: 'eth_getBlockByHash',
  params: [required(parseHash), required(parseBool)],
  async run(engine, [at, fullTx]) {
    const verified = await verifiedBlockAt(engine, { kind: 'hash', hash: at, requireCanonical: false })
    return verified && formatBlock(verified.block, fullTx, verified.stateSync)
  },
})
