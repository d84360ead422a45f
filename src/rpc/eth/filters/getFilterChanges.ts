import { defineMethod } from '../../defineMethod.js'
import { required } from '../../params.js'
import { filterStoreOf } from './filterStore.js'

/**
 * eth_getFilterChanges(id): what the filter gathered since it was last polled — logs, block hashes or
 * pending transactions — and its 5-minute deadline starts again; geth's `filter not found` for an id
 * that is unknown, expired, or another connection's.
 */
export const getFilterChanges = defineMethod({
  name: 'eth_getFilterChanges',
  params: [required((raw: unknown) => raw)],
  run: async (engine, [id], context) => filterStoreOf(engine).changes(context.session, id as string),
})
