import { createChainRules } from '../../src/chain/createChainRules.js'
import { parseHeader } from '../../src/chain/parseHeader.js'

const rules = createChainRules({ chainId: 31337n, hardfork: 'prague' })

/**
 * An anvil block (chain 31337, Prague) with `changes` made and its hash recomputed (keccak256 of its
 * RLP): the self-consistent header a lying upstream serves.
 */
export function forgeBlock(block: Record<string, string>, changes: Record<string, string>): Record<string, string> {
  const { hash: _claimed, ...fields } = block
  const forged = { ...fields, ...changes }
  return { ...forged, hash: parseHeader(forged, rules).hash }
}
