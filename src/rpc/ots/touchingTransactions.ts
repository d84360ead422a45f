import { KECCAK256_RLP, equalsBytes } from '@ethereumjs/util'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import type { Hex } from '../../types/hex.js'
import { cacheKeys } from '../../utils/cacheKeys.js'
import type { CallContext } from '../../types/progress.js'
import { blockFields } from '../trace/parityConfigs.js'
import { traceBlockTransactions } from '../trace/replayTraces.js'

/** A transaction of a block that touches the searched address: its index in the block and hash. */
export type Touching = { index: number; hash: Hex }

/** A replayed block's touch index: each transaction's hash, and the transactions each address is touched by. */
type TouchIndex = { hashes: Hex[]; touched: Map<string, number[]> }

/**
 * A block's transactions that touch the address, found by replaying the block: the address is the
 * from or to of one of its call frames (the reference's TracesFrom/TracesTo), the sender or created
 * address of a create, or either end of a selfdestruct. One replay serves every address: what each
 * transaction touches is kept by block hash in the memory cache, so a search's next page (or a
 * search for another address over the same blocks) replays nothing again.
 */
export async function touchingTransactions(
  engine: Engine,
  header: VerifiedHeader,
  address: Hex,
  context: CallContext,
): Promise<Touching[]> {
  // A block without transactions touches nobody: its header says so, no replay needed.
  if (equalsBytes(header.header.transactionsTrie, KECCAK256_RLP)) return []
  const index = await touchIndex(engine, header, context)
  return (index.touched.get(address.toLowerCase()) ?? []).map((i) => ({ index: i, hash: index.hashes[i]! }))
}

async function touchIndex(engine: Engine, header: VerifiedHeader, context: CallContext): Promise<TouchIndex> {
  const key = cacheKeys.touchedBy(header.hash)
  const kept = engine.cache.get<TouchIndex>(key)
  if (kept) return kept
  const traced = await traceBlockTransactions(
    engine,
    { kind: 'hash', hash: header.hash as Hex, requireCanonical: false },
    blockFields(false),
    context,
  )
  const hashes: Hex[] = []
  const touched = new Map<string, number[]>()
  let bytes = 64
  for (const tx of traced?.traced ?? []) {
    hashes[tx.index] = tx.hash.toLowerCase() as Hex
    const ends = new Set<string>()
    for (const entry of tx.result.trace as { action: Record<string, unknown>; result?: unknown }[]) {
      const result = entry.result as { address?: unknown } | null | undefined
      for (const a of [
        entry.action.from,
        entry.action.to,
        result?.address,
        entry.action.address,
        entry.action.refundAddress,
      ])
        if (typeof a === 'string') ends.add(a.toLowerCase())
    }
    for (const a of ends) {
      const list = touched.get(a)
      if (list) list.push(tx.index)
      else touched.set(a, [tx.index])
      bytes += 64
    }
    bytes += 80
  }
  const index = { hashes, touched }
  engine.cache.set(key, index, bytes)
  return index
}
