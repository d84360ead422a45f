import type { Engine } from '../../exec/createEngine.js'
import { ServerRpcError } from '../../errors/rpc.js'
import type { Hex } from '../../types/hex.js'
import type { CallContext } from '../../types/progress.js'
import { scanBlocks } from './scanBlocks.js'
import type { HitBlock, ScanBudget } from './scanBudget.js'
import { touchingTransactions } from './touchingTransactions.js'
import type { Claims, ClaimSource } from './upstreamSearchClaims.js'

/** Claimed blocks replayed at once while one is looked at. */
const AHEAD = 4

type Segment = { kind: 'gap'; from: bigint; to: bigint } | { kind: 'hit'; number: bigint; hashes: Set<Hex> }

/** What the address's proven account says of a gap: unchanged, changed, or (a gap from block 1) unknown. */
type GapCheck = 'unchanged' | 'changed' | 'genesis unverified'

/**
 * Whether the address's account (nonce, balance, code hash, storage root) is the same, by verified
 * proofs, at the end of the block before `from`…`to` and at the end of its last block. A transaction
 * the address sends bumps its nonce; one that runs its code and writes changes its storage root; one
 * that pays it changes its balance — so a gap across which nothing changed is one an index may
 * rightly leave out. The genesis state may not verify (a devnet's header need not commit to it).
 */
async function checkGap(engine: Engine, address: Hex, from: bigint, to: bigint): Promise<GapCheck> {
  const [lo, hi] = from <= to ? [from, to] : [to, from]
  const read = async (number: bigint) => {
    const header = await engine.headers.resolve({ kind: 'number', number })
    return engine.source.getAccount(header, address)
  }
  let before: Awaited<ReturnType<typeof read>>
  let after: Awaited<ReturnType<typeof read>>
  try {
    ;[before, after] = await Promise.all([read(lo - 1n), read(hi)])
  } catch (err) {
    if (lo - 1n === 0n) return 'genesis unverified'
    throw err
  }
  if (!before || !after) return before === after ? 'unchanged' : 'changed'
  const same =
    before.nonce === after.nonce &&
    before.balance === after.balance &&
    before.codeHash.every((b, i) => b === after.codeHash[i]) &&
    before.storageRoot.every((b, i) => b === after.storageRoot[i])
  return same ? 'unchanged' : 'changed'
}

/**
 * The hits of a gap the index leaves out: none when the account did not change across it, else the
 * gap scanned by replay. When the genesis state does not verify, block 1 is scanned alone (one
 * block; skipped by its header when it holds no transactions) and the rest checked from its end.
 */
async function* gapHits(
  engine: Engine,
  address: Hex,
  gap: { from: bigint; to: bigint },
  check: Promise<GapCheck>,
  budget: ScanBudget,
  context: CallContext,
): AsyncGenerator<HitBlock> {
  const verdict = await check
  if (verdict === 'unchanged') return
  if (verdict === 'changed') {
    yield* scanBlocks(engine, address, gap.from, gap.to, budget, context)
    return
  }
  const rest = gap.from <= gap.to ? { from: 2n, to: gap.to } : { from: gap.from, to: 2n }
  const restHasBlocks = gap.from <= gap.to ? rest.to >= 2n : rest.from >= 2n
  if (gap.from <= gap.to) yield* scanBlocks(engine, address, 1n, 1n, budget, context)
  if (restHasBlocks) {
    yield* gapHits(engine, address, rest, checkGap(engine, address, rest.from, rest.to), budget, context)
  }
  if (gap.from > gap.to) yield* scanBlocks(engine, address, 1n, 1n, budget, context)
}

/**
 * The blocks in which the address is touched, in scan order, from an upstream's index checked
 * block by block: every block it names is replayed, and every transaction it names there must be
 * one the replay finds touching the address (else an error naming both: the index is wrong); the
 * block's hits are the replay's own, so a transaction the index left out of a block it names is
 * still there. Between the blocks it names, the address's verified account must not have changed
 * (nonce, balance, code, storage); where it did, those blocks are scanned by replay (within the
 * search's budget), so a block the index skipped is found, never silently left out.
 */
export async function* indexedHits(
  engine: Engine,
  address: Hex,
  source: ClaimSource,
  first: Claims,
  start: bigint,
  end: bigint,
  budget: ScanBudget,
  context: CallContext,
): AsyncGenerator<HitBlock> {
  const step = end >= start ? 1n : -1n
  // The first block not yet accounted for: blocks before it are hits or checked gaps. A gap is checked
  // only when the next named block (or the end) is reached, so windows with no hit cost no proofs.
  let gapFrom = start
  let claims = first
  for (;;) {
    // The next answer of the index is asked for while this one is checked (it depends only on where
    // this one ends); when the page fills first, it is not waited for.
    const next = claims.coveredTo === end ? undefined : source.next(claims.coveredTo + step, end)
    next?.catch(() => {})
    const last = claims.coveredTo === end
    const segments: Segment[] = []
    for (const block of claims.blocks) {
      if (block.number !== gapFrom) segments.push({ kind: 'gap', from: gapFrom, to: block.number - step })
      segments.push({ kind: 'hit', ...block })
      gapFrom = block.number + step
    }
    if (last && (step > 0n ? gapFrom <= end : gapFrom >= end)) segments.push({ kind: 'gap', from: gapFrom, to: end })

    // Gap checks are proofs only: all asked at once (one batch). Claimed blocks are replayed a few ahead.
    const checks = segments.map((s) => {
      if (s.kind !== 'gap') return undefined
      const check = checkGap(engine, address, s.from, s.to)
      check.catch(() => {})
      return check
    })
    const confirms: Promise<HitBlock>[] = []
    const confirm = (j: number) => {
      const s = segments[j]!
      if (s.kind !== 'hit' || confirms[j] !== undefined) return
      confirms[j] = confirmClaim(engine, address, source, s.number, s.hashes, context)
      confirms[j].catch(() => {})
    }
    for (const [j, s] of segments.entries()) {
      for (let k = j; k < Math.min(segments.length, j + AHEAD); k++) confirm(k)
      if (s.kind === 'hit') yield await confirms[j]!
      else yield* gapHits(engine, address, s, checks[j]!, budget, context)
    }
    if (!next) return
    claims = await next
  }
}

/** A block the index names, replayed: its touching transactions, which must include every one named. */
async function confirmClaim(
  engine: Engine,
  address: Hex,
  source: ClaimSource,
  number: bigint,
  hashes: Set<Hex>,
  context: CallContext,
): Promise<HitBlock> {
  const header = await engine.headers.resolve({ kind: 'number', number })
  const hits = await touchingTransactions(engine, header, address, context)
  const found = new Set(hits.map((h) => h.hash))
  for (const hash of hashes) {
    if (!found.has(hash)) {
      throw new ServerRpcError(
        `upstream's ${source.name} names transaction ${hash} in block ${number} for ${address}, ` +
          `but the verified block has no such transaction touching ${address}`,
      )
    }
  }
  return { header, hits }
}
