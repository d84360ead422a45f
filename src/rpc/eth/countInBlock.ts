import type { Engine } from '../../exec/createEngine.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import type { Hex } from '../../types/hex.js'
import { quantity } from '../../utils/hex.js'
import { verifiedBlockAt } from './verifiedBlockAt.js'

/** How many transactions or uncles the verified block holds; null when the upstream does not know the block. */
export async function count(
  engine: Engine,
  selector: BlockSelector,
  what: 'transactions' | 'uncles',
): Promise<Hex | null> {
  const verified = await verifiedBlockAt(engine, selector)
  if (!verified) return null
  return quantity(what === 'transactions' ? verified.block.transactions.length : verified.block.uncleHeaders.length)
}
