import { bytesToHex } from '@ethereumjs/util'
import { locateTransaction } from '../../exec/locateTransaction.js'
import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseHash } from '../parsers.js'
import { transactionMismatch } from './transactionMismatch.js'
import { verifiedBlockAt } from './verifiedBlockAt.js'
import { verifiedReceiptsOf } from './verifiedReceiptsOf.js'

/**
 * eth_getTransactionReceipt(hash): the receipt, from the block the upstream says the transaction is
 * in — the transaction must be there at the index claimed (verified block), and the block's receipts
 * must hash to its receiptsRoot. null when the upstream knows no mined transaction of that hash.
 */
export const getTransactionReceipt = defineMethod({
  name: 'eth_getTransactionReceipt',
  params: [required(parseHash)],
  async run(engine, [hash]) {
    const at = await locateTransaction(engine, hash)
    if (!at) return null
    const verified = await verifiedBlockAt(engine, {
      kind: 'hash',
      hash: at.blockHash as never,
      requireCanonical: false,
    })
    if (!verified) return null
    const tx = verified.block.transactions[at.index]
    if (!tx || bytesToHex(tx.hash()) !== hash) {
      throw transactionMismatch(`transaction ${hash} is not at index ${at.index}, where the upstream says it is`, {
        block: verified.header,
        expectedHash: hash,
        ...(tx ? { gotHash: bytesToHex(tx.hash()) } : {}),
      })
    }
    return (await verifiedReceiptsOf(engine, verified))[at.index]
  },
})
