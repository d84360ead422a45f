import type { CallTraceArena } from '../../recorder/types.js'
import type { Hex } from '../../../types/hex.js'
import { bytes } from '../../../utils/hex.js'

/**
 * ots_getTransactionError's answer from the call-trace arena: the top frame's revert data when the
 * transaction reverted, else `0x` — the reference's ExecutionResult.Revert(), which is the return data
 * only when the error is "execution reverted" (any other failure, out of gas say, has none).
 */
export function toTransactionError(arena: CallTraceArena): Hex {
  const root = arena.nodes[0]
  return root?.error === 'execution reverted' ? bytes(root.output) : '0x'
}
