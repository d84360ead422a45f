import { defineMethod } from '../defineMethod.js'
import { verifiedBlockAt } from '../eth/verifiedBlockAt.js'
import { verifiedReceiptsOf } from '../eth/verifiedReceiptsOf.js'
import { required } from '../params.js'
import { formatOtsBlock } from './formatOtsBlock.js'
import { parseOtsBlockNumber } from './parseOtsBlockNumber.js'
import { parseUint8 } from './parseUint8.js'

/**
 * ots_getBlockTransactions(number, pageNumber, pageSize): one page of a verified block's transactions
 * and their receipts (checked against receiptsRoot), as the reference pages them — from the end:
 * page 0 is the last `pageSize` transactions, in block order. Inputs are cut to their first 4 bytes
 * (the selector Otterscan shows); receipts carry neither logs nor bloom. null for an unknown block.
 */
export const getBlockTransactions = defineMethod({
  name: 'ots_getBlockTransactions',
  params: [required(parseOtsBlockNumber), required(parseUint8), required(parseUint8)],
  async run(engine, [selector, pageNumber, pageSize]): Promise<Record<string, unknown> | null> {
    const verified = await verifiedBlockAt(engine, selector)
    if (!verified) return null
    const receipts = await verifiedReceiptsOf(engine, verified)
    const count = verified.block.transactions.length
    const end = Math.max(0, count - pageNumber * pageSize)
    const start = Math.max(0, end - pageSize)
    const fullblock = formatOtsBlock(verified.block, true)
    const transactions = fullblock.transactions as Record<string, unknown>[]
    fullblock.transactions = transactions.slice(start, end).map((tx) => {
      const input = tx.input as string
      return input.length > 10 ? { ...tx, input: input.slice(0, 10) } : tx
    })
    return {
      fullblock,
      receipts: receipts.slice(start, end).map((receipt) => ({ ...receipt, logs: null, logsBloom: null })),
    }
  },
})
