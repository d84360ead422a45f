import { defineMethod } from '../defineMethod.js'

export const CLIENT_VERSION = 'edgetrace/v0.1.0'

/** web3_clientVersion(): edgetrace's version and the runtime it runs in, answered locally. */
export const clientVersion = defineMethod({
  name: 'web3_clientVersion',
  params: [],
  async run() {
    return `${CLIENT_VERSION}/${typeof process !== 'undefined' && process.versions?.node ? `node-${process.versions.node}` : 'browser'}`
  },
})
