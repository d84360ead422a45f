import { defineNamespace } from '../defineNamespace.js'
import { clientVersion } from './clientVersion.js'
import { sha3 } from './sha3.js'

/** The web3 namespace, answered locally. */
export const web3Namespace = defineNamespace({
  name: 'web3',
  summary: "the client's version, keccak-256",
  methods: [clientVersion, sha3],
})
