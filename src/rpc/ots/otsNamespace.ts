import { defineNamespace } from '../defineNamespace.js'
import { getApiLevel } from './getApiLevel.js'
import { getBlockDetails } from './getBlockDetails.js'
import { getBlockDetailsByHash } from './getBlockDetailsByHash.js'
import { getBlockTransactions } from './getBlockTransactions.js'
import { getInternalOperations } from './getInternalOperations.js'
import { getTransactionError } from './getTransactionError.js'
import { hasCode } from './hasCode.js'
import { traceTransaction } from './traceTransaction.js'

/**
 * The ots namespace (Otterscan's API, level 8), computed locally: traces from replays on verified
 * state, blocks and receipts from verified data.
 */
export const otsNamespace = defineNamespace({
  name: 'ots',
  methods: [
    getApiLevel,
    getInternalOperations,
    traceTransaction,
    getTransactionError,
    getBlockDetails,
    getBlockDetailsByHash,
    getBlockTransactions,
    hasCode,
  ],
})
