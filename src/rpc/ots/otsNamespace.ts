import { defineNamespace } from '../defineNamespace.js'
import { getContractCreator } from './getContractCreator.js'
import { getTransactionBySenderAndNonce } from './getTransactionBySenderAndNonce.js'
import { searchTransactionsAfter } from './searchTransactionsAfter.js'
import { searchTransactionsBefore } from './searchTransactionsBefore.js'

/** Otterscan's ots_* methods. */
export const otsNamespace = defineNamespace({
  name: 'ots',
  methods: [getTransactionBySenderAndNonce, getContractCreator, searchTransactionsBefore, searchTransactionsAfter],
})
