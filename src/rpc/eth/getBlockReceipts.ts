import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseBlockNumberOrHashStrict } from '../debug/rawBlockHeader.js'
import { verifiedBlockAt } from './verifiedBlockAt.js'
import { verifiedReceiptsOf } from './verifiedReceiptsOf.js'

/**
 * eth_getBlockReceipts(block): the block's receipts in geth's shape, every one checked against the
 * verified header's receiptsRoot and built with the block's verified transactions. null when the
 * upstream does not know the block.
 */
export const getBlockReceipts = defineMethod({
  name: 'eth_getBlockReceipts',
  params: [required(parseBlockNumberOrHashStrict)],
  async run(engine, [selector]) {
    const verified = await verifiedBlockAt(engine, selector)
    return verified && verifiedReceiptsOf(engine, verified)
  },
})
