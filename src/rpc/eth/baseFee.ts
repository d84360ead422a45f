import { quantity } from '../../utils/hex.js'
import { defineMethod } from '../defineMethod.js'

/** EIP-1559's base fee of a chain's first London block. */
const INITIAL_BASE_FEE = 1_000_000_000n

/**
 * eth_baseFee(): the base fee of the block after the latest verified header (geth's BaseFee: EIP-1559's
 * rule applied to the head; the initial base fee when the next block is London's first; null when
 * the next block has no base fee).
 */
export const baseFee = defineMethod({
  name: 'eth_baseFee',
  params: [],
  async run(engine) {
    const latest = await engine.headers.resolve({ kind: 'tag', tag: 'latest' })
    if (latest.header.baseFeePerGas !== undefined) return quantity(latest.header.calcNextBaseFee())
    const next = engine.rules.commonFor(latest.number + 1n, latest.header.timestamp + 1n)
    return next.isActivatedEIP(1559) ? quantity(INITIAL_BASE_FEE) : null
  },
})
