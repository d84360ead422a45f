import type { Engine } from '../../exec/createEngine.js'
import type { RpcNamespace } from '../createRpcHandler.js'
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
 * The trace namespace (served when `trace` is in --http.api): Parity/OpenEthereum-style traces
 * computed locally on verified state, in the shapes of the recorded outputs of OpenEthereum/Besu.
 * One file per method.
 */
export function createTraceNamespace(engine: Engine): RpcNamespace {
  return {
    name: 'trace',
    methods: {
      trace_transaction: (params) => transaction(engine, params),
      trace_get: (params) => get(engine, params),
      trace_block: (params, context) => block(engine, params, context),
      trace_call: (params) => call(engine, params),
      trace_callMany: (params) => callMany(engine, params),
      trace_rawTransaction: (params) => rawTransaction(engine, params),
      trace_filter: (params, context) => filter(engine, params, context),
      trace_replayTransaction: (params) => replayTransaction(engine, params),
      trace_replayBlockTransactions: (params, context) => replayBlockTransactions(engine, params, context),
    },
  }
}
