import { defineMethod } from '../../defineMethod.js'
import { filterStoreOf } from './filterStore.js'

/** eth_newBlockFilter(): eth_getFilterChanges gives the hashes of the blocks verified since, each linked to its parent. */
export const newBlockFilter = defineMethod({
  name: 'eth_newBlockFilter',
  params: [],
  run: (engine, _args, context) => filterStoreOf(engine).install(context.session, { kind: 'newHeads' }, 'blocks'),
})
