import { defineMethod } from '../../defineMethod.js'
import { optional } from '../../params.js'
import { parseBool } from '../../parsers.js'
import { filterStoreOf } from './filterStore.js'

/**
 * eth_newPendingTransactionFilter(fullTx = false): eth_getFilterChanges gives the transactions the
 * pool took in since (its own and the upstream's, each re-hashed and its sender recovered), as
 * hashes or (`true`, as geth) whole transactions.
 */
export const newPendingTransactionFilter = defineMethod({
  name: 'eth_newPendingTransactionFilter',
  params: [optional(parseBool)],
  run: (engine, [full], context) =>
    filterStoreOf(engine).install(
      context.session,
      { kind: 'newPendingTransactions', full: full ?? false },
      'pendingTransactions',
    ),
})
