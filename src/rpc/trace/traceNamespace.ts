import { defineNamespace } from '../defineNamespace.js'
import { block } from './block.js'
import { call } from './call.js'
import { callMany } from './callMany.js'
import { filter } from './filter.js'
import { get } from './get.js'
import { rawTransaction } from './rawTransaction.js'
import { replayBlockTransactions } from './replayBlockTransactions.js'
import { replayTransaction } from './replayTransaction.js'
import { transaction } from './transaction.js'

/**
 * The trace namespace: Parity/OpenEthereum-style traces computed locally on verified state, in the
 * shapes of the recorded outputs of OpenEthereum/Besu.
 */
export const traceNamespace = defineNamespace({
  name: 'trace',
  summary:
    'Parity-style traces: trace_transaction, trace_block, trace_call, trace_replay*, trace_filter (vmTrace, stateDiff)',
  methods: [
    transaction,
    get,
    block,
    call,
    callMany,
    rawTransaction,
    filter,
    replayTransaction,
    replayBlockTransactions,
  ],
})
