import type { Block } from '@ethereumjs/block'
import { goMapOrder } from '../../utils/goMapOrder.js'
import { formatBlock } from '../eth/formatBlock.js'

/**
 * A block as the reference's ots methods write it (delegateGetBlockByNumber): geth's block shape,
 * plus `transactionCount` (a bare JSON number), with `logsBloom` null and, without `fullTx`, no
 * `transactions` at all. No `totalDifficulty` (the reference dropped it after the merge-era rewrite).
 */
export function formatOtsBlock(block: Block, fullTx: boolean): Record<string, unknown> {
  const out = formatBlock(block, fullTx)
  if (!fullTx) delete out.transactions
  out.transactionCount = block.transactions.length
  out.logsBloom = null
  return goMapOrder(out)
}
