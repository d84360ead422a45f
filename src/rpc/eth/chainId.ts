import type { Engine } from '../../exec/createEngine.js'
import { parseParams } from '../params.js'

/**
 * eth_chainId answered locally: the chain id every execution runs with (read from the upstream
 * once at start, or from --chain). No upstream round trip, so it also answers while the upstream is
 * slow or gone.
 */
export async function chainId(engine: Engine, params: unknown): Promise<string> {
  parseParams(params, [])
  return `0x${engine.rules.chainId.toString(16)}`
}
