import { defineMethod } from '../../defineMethod.js'
import { required } from '../../params.js'
import { filterStoreOf } from './filterStore.js'

/** eth_uninstallFilter(id): true when the filter was removed, false when there was none by that id (geth). */
export const uninstallFilter = defineMethod({
  name: 'eth_uninstallFilter',
  params: [required((raw: unknown) => raw)],
  run: async (engine, [id], context) => filterStoreOf(engine).uninstall(context.session, id as string),
})
