import { ServerRpcError } from '../../../errors/rpc.js'
import { defineMethod } from '../../defineMethod.js'
import { required } from '../../params.js'
import { subscriptionHubOf } from './subscriptionHub.js'

const parseId = (raw: unknown): string => {
  if (typeof raw !== 'string') throw new ServerRpcError('subscription not found')
  return raw.toLowerCase()
}

/** eth_unsubscribe(id): true once the connection's subscription is ended; "subscription not found" otherwise. */
export const unsubscribe = defineMethod({
  name: 'eth_unsubscribe',
  params: [required(parseId)],
  async run(engine, [id], context) {
    if (!context.session) throw new ServerRpcError('notifications not supported')
    if (!subscriptionHubOf(engine).unsubscribe(context.session, id)) throw new ServerRpcError('subscription not found')
    return true
  },
})
