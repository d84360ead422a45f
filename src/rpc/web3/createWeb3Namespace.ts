import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import type { RpcNamespace } from '../createRpcHandler.js'
import { parseParams, required } from '../params.js'
import { parseData } from '../parsers.js'

export const CLIENT_VERSION = 'edgetrace/v0.1.0'

/** web3_clientVersion and web3_sha3, answered locally. */
export function createWeb3Namespace(): RpcNamespace {
  return {
    name: 'web3',
    methods: {
      web3_clientVersion: async (params) => {
        parseParams(params, [])
        return `${CLIENT_VERSION}/${typeof process !== 'undefined' && process.versions?.node ? `node-${process.versions.node}` : 'browser'}`
      },
      web3_sha3: async (params) => {
        const [data] = parseParams(params, [required(parseData)])
        return bytesToHex(keccak_256(hexToBytes(data)))
      },
    },
  }
}
