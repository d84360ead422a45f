import { RpcError, ServerRpcError } from '../../../errors/rpc.js'
import { defineMethod } from '../../defineMethod.js'
import { optional, required } from '../../params.js'
import { parseBool } from '../../parsers.js'
import { parseLogFilter } from '../parseLogFilter.js'
import { type Subscription, subscriptionHubOf } from './subscriptionHub.js'

const KINDS = ['newHeads', 'logs', 'newPendingTransactions', 'syncing'] as const

function parseKind(raw: unknown): (typeof KINDS)[number] {
  if (typeof raw !== 'string') throw new RpcError(-32602, 'invalid argument 0: expected a subscription name')
  if (!(KINDS as readonly string[]).includes(raw))
    throw new RpcError(-32601, `no ${JSON.stringify(raw)} subscription in eth namespace`)
  return raw as (typeof KINDS)[number]
}

/**
 * eth_subscribe(name, options?) on a connection that can be pushed to (WebSocket, IPC, TCP, a page's
 * worker port): `newHeads`, `logs` (a filter's `address` and `topics`), `newPendingTransactions`
 * (`true`: whole transactions), `syncing`; each notification `eth_subscription` with the id returned.
 * Everything pushed is verified as a call's answer is (subscriptionHub). Over HTTP: the reference's
 * "notifications not supported".
 */
export const subscribe = defineMethod({
  name: 'eth_subscribe',
  params: [required(parseKind), optional((raw: unknown) => raw)],
  async run(engine, [kind, options], context) {
    if (!context.session) throw new ServerRpcError('notifications not supported')
    let subscription: Subscription
    if (kind === 'logs') subscription = { kind, filter: parseLogFilter(options ?? {}) }
    else if (kind === 'newPendingTransactions')
      subscription = { kind, full: options === undefined ? false : parseBool(options) }
    else subscription = { kind }
    return subscriptionHubOf(engine).subscribe(context.session, subscription)
  },
})
