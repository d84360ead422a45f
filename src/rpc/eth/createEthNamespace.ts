import type { Engine } from '../../exec/createEngine.js'
import type { RpcNamespace } from '../createRpcHandler.js'
import { passThroughParams } from '../passThroughParams.js'
import { call } from './call.js'
import { chainId } from './chainId.js'
import { createAccessList } from './createAccessList.js'
import { estimateGas } from './estimateGas.js'
import { ServerRpcError } from '../../errors/rpc.js'

/** Subscriptions need a push channel to the upstream that edgetrace does not keep. */
const UNSUPPORTED = new Set(['eth_subscribe', 'eth_unsubscribe'])

/**
 * The eth namespace: eth_call, eth_estimateGas and eth_createAccessList computed locally on
 * verified state, eth_chainId from the chain's rules; every other eth_* method passed through to the upstream as it is.
 */
export function createEthNamespace(engine: Engine): RpcNamespace {
  return {
    name: 'eth',
    methods: {
      eth_chainId: (params) => chainId(engine, params),
      eth_call: (params) => call(engine, params),
      eth_estimateGas: (params) => estimateGas(engine, params),
      eth_createAccessList: (params) => createAccessList(engine, params),
    },
    fallback: async (method, params) => {
      if (UNSUPPORTED.has(method)) throw new ServerRpcError('notifications not supported')
      return engine.upstream.request(method, passThroughParams(params))
    },
  }
}
