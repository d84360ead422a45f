import { defineMethod } from '../defineMethod.js'

/**
 * eth_chainId answered locally: the chain id every execution runs with (read from the upstream
 * once at start, or from --chain). No upstream round trip, so it also answers while the upstream is
 * slow or gone.
 */
export const chainId = defineMethod({
  name: 'eth_chainId',
  params: [],
  async run(engine): Promise<string> {
    return `0x${engine.rules.chainId.toString(16)}`
  },
})
