import type { Engine } from '../../exec/createEngine.js'
import type { VerifiedBlock } from '../../exec/fetchVerifiedBlock.js'
import { quantity } from '../../utils/hex.js'
import { verifiedReceiptsOf } from '../eth/verifiedReceiptsOf.js'
import { blockIssuance } from './blockIssuance.js'
import { formatOtsBlock } from './formatOtsBlock.js'

/**
 * ots_getBlockDetails' answer for a verified block: the block without its transactions, what it
 * minted, and `totalFees` — Σ gas used × effective gas price over its receipts checked against
 * receiptsRoot (the price the sender paid: the burnt base fee included, as the reference counts it).
 * A map in the reference, so its keys come sorted (block, issuance, totalFees).
 */
export async function blockDetails(engine: Engine, verified: VerifiedBlock): Promise<Record<string, unknown>> {
  const [issuance, receipts] = await Promise.all([
    blockIssuance(engine, verified),
    verifiedReceiptsOf(engine, verified),
  ])
  let totalFees = 0n
  for (const receipt of receipts)
    totalFees += BigInt(receipt.gasUsed as string) * BigInt(receipt.effectiveGasPrice as string)
  return { block: formatOtsBlock(verified.block, false), issuance, totalFees: quantity(totalFees) }
}
