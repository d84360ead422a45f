import { ServerRpcError } from '../../../errors/rpc.js'
import { defineMethod } from '../../defineMethod.js'
import { required } from '../../params.js'
import { verifiedLogs } from '../getLogs.js'
import { filterStoreOf } from './filterStore.js'

/**
 * eth_getFilterLogs(id): every log the log filter's criteria match, as eth_getLogs answers them (from
 * receipts verified against `receiptsRoot`); `filter not found` for an unknown id or a filter of
 * blocks or transactions (geth). It does not move the filter's deadline on (geth).
 */
export const getFilterLogs = defineMethod({
  name: 'eth_getFilterLogs',
  params: [required((raw: unknown) => raw)],
  async run(engine, [id], context) {
    const filter = filterStoreOf(engine).get(context.session, id as string)
    if (filter.kind !== 'logs' || !filter.criteria) throw new ServerRpcError('filter not found')
    return verifiedLogs(engine, filter.criteria)
  },
})
