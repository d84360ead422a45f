import type { Common } from '@ethereumjs/common'
import { createTxFromRPC } from '@ethereumjs/tx'
import { bytesToHex } from '@ethereumjs/util'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import { UpstreamRpcError } from '../../errors/upstream.js'
import type { Engine } from '../createEngine.js'
import { withoutBlobSidecar } from '../fetchVerifiedBlock.js'
import { toPoolTransaction } from './poolTransaction.js'

type Content = Record<string, Record<string, Record<string, Record<string, unknown>>> | undefined>

/**
 * One transaction the upstream says is pending (its `txpool_content` or its pending feed): decoded
 * from its fields under `common`, re-hashed, its sender recovered — and kept only when both are what
 * the upstream says (`sender` too, when the pool keyed it by one). Returns its hash when it checks
 * (kept, or already known); otherwise counts it dropped and returns undefined.
 */
export async function takeUpstreamTransaction(
  engine: Engine,
  json: Record<string, unknown>,
  common: Common,
  sender?: string,
): Promise<string | undefined> {
  let hash: string
  try {
    const tx = await createTxFromRPC(withoutBlobSidecar(json) as never, { common })
    hash = bytesToHex(tx.hash())
    const from = tx.getSenderAddress().toString()
    if (
      hash !== String(json.hash).toLowerCase() ||
      from !== String(json.from).toLowerCase() ||
      (sender !== undefined && from !== sender.toLowerCase())
    )
      throw new Error('hash or sender does not check')
    if (!engine.txpool.get(hash)) engine.txpool.add(toPoolTransaction(tx, false))
  } catch (err) {
    if (err instanceof Error && /already known|underpriced|txpool is full/.test(err.message)) return undefined
    engine.upstreamPool.dropped++
    return undefined
  }
  return hash
}

/** How often the upstream's pool is read again while the head stays the same. */
const REREAD_MS = 1000

/**
 * Takes in the upstream's own pool (`txpool_content`: geth, reth, Erigon, anvil): each transaction
 * decoded from its fields, re-hashed, its sender recovered; one whose hash or sender is not what the
 * upstream says is dropped and counted, never kept. Remote transactions the upstream no longer
 * holds leave. Read at most once a second and again on a new head; an upstream without the method
 * is not asked again.
 */
export async function readUpstreamPool(engine: Engine, head: VerifiedHeader): Promise<void> {
  const state = engine.upstreamPool
  if (!state.offered) return
  if (state.headHash === head.hash && Date.now() - state.readAt < REREAD_MS) return
  let content: Content | null
  try {
    content = await engine.upstream.request<Content | null>('txpool_content', [])
  } catch (err) {
    if (
      err instanceof UpstreamRpcError &&
      (err.code === -32601 || /not (exist|found|available|supported)/i.test(err.message))
    )
      state.offered = false
    return // the local pool still answers
  }
  state.readAt = Date.now()
  state.headHash = head.hash
  if (typeof content !== 'object' || content === null) return
  const common = engine.rules.commonFor(head.number + 1n, head.header.timestamp + 1n)
  const seen = new Set<string>()
  for (const pool of ['pending', 'baseFee', 'queued']) {
    const bySender = content[pool]
    if (typeof bySender !== 'object' || bySender === null) continue
    for (const [sender, byNonce] of Object.entries(bySender)) {
      if (typeof byNonce !== 'object' || byNonce === null) continue
      for (const json of Object.values(byNonce)) {
        const hash = await takeUpstreamTransaction(engine, json, common, sender)
        if (hash) seen.add(hash)
      }
    }
  }
  for (const sender of engine.txpool.senders())
    for (const tx of engine.txpool.of(sender)) if (!tx.local && !seen.has(tx.hash)) engine.txpool.remove(tx.hash)
}
