import type { Engine } from '../../exec/createEngine.js'
import type { VerifiedBlock } from '../../exec/fetchVerifiedBlock.js'
import { fetchVerifiedReceipts } from '../debug/fetchVerifiedReceipts.js'
import { formatReceipts } from './formatReceipts.js'

/** A verified block's receipts in geth's shape, each checked against receiptsRoot. */
export async function verifiedReceiptsOf(engine: Engine, verified: VerifiedBlock): Promise<Record<string, unknown>[]> {
  return formatReceipts(verified.block, await fetchVerifiedReceipts(engine, verified.header))
}
