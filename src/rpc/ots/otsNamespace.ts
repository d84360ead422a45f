import { defineNamespace } from '../defineNamespace.js'
import { getApiLevel } from './getApiLevel.js'
import { getBlockDetails } from './getBlockDetails.js'
import { getBlockDetailsByHash } from './getBlockDetailsByHash.js'
import { getBlockTransactions } from './getBlockTransactions.js'
import { getContractCreator } from './getContractCreator.js'
import { getInternalOperations } from './getInternalOperations.js'
import { getTransactionBySenderAndNonce } from './getTransactionBySenderAndNonce.js'
import { getTransactionError } from './getTransactionError.js'
import { hasCode } from './hasCode.js'
import { searchTransactionsAfter } from './searchTransactionsAfter.js'
import { searchTransactionsBefore } from './searchTransactionsBefore.js'
import { traceTransaction } from './traceTransaction.js'

/**
 * The ots namespace (Otterscan's API, level 8), computed locally: traces from replays on verified
 * state, blocks and receipts from verified data, and the index-backed methods without an index
 * (searches over verified nonces and code hashes, bounded block scans).
 */
export const otsNamespace = defineNamespace({
  name: 'ots',
  summary: "Otterscan's API (level 8): internal operations, block details, searches, contract creators",
  methods: [
    getApiLevel,
    getInternalOperations,
    traceTransaction,
    getTransactionError,
    getBlockDetails,
    getBlockDetailsByHash,
    getBlockTransactions,
    hasCode,
    getTransactionBySenderAndNonce,
    getContractCreator,
    searchTransactionsBefore,
    searchTransactionsAfter,
  ],
})
