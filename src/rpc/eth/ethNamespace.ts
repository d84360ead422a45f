import { ServerRpcError } from '../../errors/rpc.js'
import { defineNamespace } from '../defineNamespace.js'
import { passThroughParams } from '../passThroughParams.js'
import { call } from './call.js'
import { chainId } from './chainId.js'
import { createAccessList } from './createAccessList.js'
import { estimateGas } from './estimateGas.js'
import { simulateV1 } from './simulateV1.js'

/** Subscriptions need a push channel to the upstream that edgetrace does not keep. */
const UNSUPPORTED = new Set(['eth_subscribe', 'eth_unsubscribe'])

/**
 * The eth namespace: eth_call, eth_estimateGas, eth_createAccessList and eth_simulateV1 computed locally on
 * verified state, eth_chainId from the chain's rules; every other eth_* method passed through to
 * the upstream as it is.
 */
export const ethNamespace = defineNamespace({
  name: 'eth',
  methods: [chainId, call, estimateGas, createAccessList, simulateV1],
  fallback: async (engine, method, params) => {
    if (UNSUPPORTED.has(method)) throw new ServerRpcError('notifications not supported')
    return engine.upstream.request(method, passThroughParams(params))
  },
})
