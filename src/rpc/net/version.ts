import { defineMethod } from '../defineMethod.js'

/** net_version(): the chain id in decimal, as geth answers it, without asking the upstream. */
export const version = defineMethod({
  name: 'net_version',
  params: [],
  async run(engine) {
    return engine.rules.chainId.toString()
  },
})
