import { KECCAK256_RLP, equalsBytes } from '@ethereumjs/util'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import type { Hex } from '../../types/hex.js'
import type { CallContext } from '../../types/progress.js'
import { blockFields } from '../trace/parityConfigs.js'
import { traceBlockTransactions } from '../trace/replayTraces.js'

/** A transaction of a block that touches the searched address: its index in the block and hash. */
export type Touching = { index: number; hash: Hex }

/**
 * A block's transactions that touch the address, found by replaying the block: the address is the
 * from or to of one of its call frames (the reference's TracesFrom/TracesTo), the sender or created
 * address of a create, or either end of a selfdestruct.
 */
export async function touchingTransactions(
  engine: Engine,
  header: VerifiedHeader,
  address: Hex,
  context: CallContext,
): Promise<Touching[]> {
  // A block without transactions touches nobody: its header says so, no replay needed.
  if (equalsBytes(header.header.transactionsTrie, KECCAK256_RLP)) return []
  const traced = await traceBlockTransactions(
    engine,
    { kind: 'hash', hash: header.hash as Hex, requireCanonical: false },
    blockFields(false),
    context,
  )
  const hits: Touching[] = []
  for (const tx of traced?.traced ?? []) {
    const touches = (tx.result.trace as { action: Record<string, unknown>; result?: unknown }[]).some((entry) => {
      const result = entry.result as { address?: unknown } | null | undefined
      const ends = [
        entry.action.from,
        entry.action.to,
        result?.address,
        entry.action.address,
        entry.action.refundAddress,
      ]
      return ends.some((a) => typeof a === 'string' && a.toLowerCase() === address)
    })
    if (touches) hits.push({ index: tx.index, hash: tx.hash.toLowerCase() as Hex })
  }
  return hits
}
