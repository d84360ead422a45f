import type { Engine } from '../../exec/createEngine.js'
import type { RpcNamespace } from '../createRpcHandler.js'
import { passThroughParams } from '../passThroughParams.js'
import { parseParams } from '../params.js'

/** net_version answered locally (the chain id in decimal, as geth does); the rest passed through. */
export function createNetNamespace(engine: Engine): RpcNamespace {
  return {
    name: 'net',
    methods: {
      net_version: async (params) => {
        parseParams(params, [])
        return engine.rules.chainId.toString()
      },
      net_listening: async (params) => {
        parseParams(params, [])
        return true
      },
    },
    fallback: (method, params) => engine.upstream.request(method, passThroughParams(params)),
  }
}
