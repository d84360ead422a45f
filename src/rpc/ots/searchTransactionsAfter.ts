import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseAddress } from '../parsers.js'
import { parseGoUint } from './parseGoUint.js'
import { type SearchPage, searchTransactions } from './searchTransactions.js'

/**
 * ots_searchTransactionsAfter(address, blockNum, pageSize): transactions touching the address in blocks
 * > blockNum (0: from genesis), newest first — by a bounded scan with replay (no index).
 */
export const searchTransactionsAfter = defineMethod({
  name: 'ots_searchTransactionsAfter',
  params: [required(parseAddress), required(parseGoUint(64)), required(parseGoUint(16))],
  run(engine, [address, blockNum, pageSize], context): Promise<SearchPage> {
    return searchTransactions(engine, address, blockNum, pageSize, 'after', context)
  },
})
