import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import { fetchVerifiedBlock } from '../../exec/fetchVerifiedBlock.js'
import { BlockNotFoundError } from '../../errors/state.js'
import type { Hex } from '../../types/hex.js'
import { fetchVerifiedReceipts } from '../debug/fetchVerifiedReceipts.js'
import { formatReceipts } from '../eth/formatReceipts.js'

/** The verified header a hash names, or undefined when the upstream does not know it. */
export async function headerByHash(engine: Engine, hash: Hex): Promise<VerifiedHeader | undefined> {
  try {
    return await engine.headers.byHash(hash)
  } catch (err) {
    if (err instanceof BlockNotFoundError) return undefined
    throw err
  }
}

/**
 * A block's receipts in eth's shape, every one checked: the receipts against receiptsRoot, the
 * transactions (hashes, senders, fees) against transactionsRoot.
 */
export async function verifiedBlockReceipts(
  engine: Engine,
  header: VerifiedHeader,
): Promise<Record<string, unknown>[]> {
  const [verified, receipts] = await Promise.all([
    fetchVerifiedBlock(engine, header),
    fetchVerifiedReceipts(engine, header),
  ])
  return formatReceipts(verified.block, receipts)
}
