import { bytesToHex } from '@ethereumjs/util'
import { BlockNotFoundError, CheckpointError, HeaderVerificationError } from '../errors/state.js'
import type { LruCache } from '../utils/createLruCache.js'
import type { Upstream } from '../upstream/types.js'
import type { ChainRules } from './createChainRules.js'
import { type VerifiedHeader, parseHeader } from './parseHeader.js'
import { cacheKeys } from '../utils/cacheKeys.js'
import { quantity } from '../utils/hex.js'
import type { Hex } from '../types/hex.js'

export type CheckpointLinker = {
  readonly hash: Hex
  /** The checkpoint's header, fetched by hash and verified (once it succeeds). */
  header(): Promise<VerifiedHeader>
  /** The hash the checkpoint's chain has at `number` (at most the checkpoint's), found by parent links. */
  hashAt(number: bigint): Promise<Hex>
  /** Resolves when `head` is on the checkpoint's chain; throws CheckpointError when it is not. */
  link(head: VerifiedHeader): Promise<void>
  /** Cache key of a block number whose hash was linked to this checkpoint. */
  numberKey(n: bigint): string
}

export type CreateCheckpointLinkerParameters = {
  checkpoint: string
  upstream: Upstream
  rules: ChainRules
  cache: LruCache
  /** The header store's verified, cached fetch by hash. */
  byHash(hash: string): Promise<VerifiedHeader>
  /** Puts a verified header in the header store's cache. */
  keep(header: VerifiedHeader): void
  /** Blocks this far below a linked block are taken as final: their number → hash is cached (and persisted). */
  reorgDepth: number
  log?: ((line: string) => void) | undefined
  /** Hashes a walk keeps in full (default 4,096); beyond, one every `anchorEvery`. Smaller in tests. */
  dense?: number
  /** One linked hash every this many blocks is kept for good (default 256). */
  anchorEvery?: bigint
}

/** Headers asked by number in one go (the upstream client batches calls issued in the same tick). */
const BATCH = 256n
/** One linked (number, hash) every this many blocks is kept outside the LRU, so a walk never has to start over from far away. */
const ANCHOR_EVERY = 256n
/** A walk keeps every hash it passed up to this many; beyond, only anchors (memory stays bounded on a walk of millions). */
const DENSE = 4096
const LOG_EVERY_MS = 5000

const HASH = /^0x[0-9a-fA-F]{64}$/

/**
 * The trust anchor for blocks asked by number or tag: the upstream's word on which block is number N
 * is taken only if that block's header chain links, by parent hashes, to a block hash the user gave.
 * Below the checkpoint, the checkpoint's own ancestry (walked down by parent links) says which block
 * each number is; above it, a block must have the checkpoint among its ancestors. Walks fetch up to
 * 256 headers by number at once and check each parent link; a header the upstream gave by number that
 * does not link is refused and the parent is fetched by its hash instead. What was linked is
 * remembered (linked hashes, and the number → hash of the checkpoint's ancestors), so a second request
 * near a block walks only the new part.
 *
 * Above the checkpoint this proves descent, not canonicity: without a consensus check, a block the
 * upstream made up on top of the real chain links as well as the real one does.
 */
export function createCheckpointLinker({
  checkpoint,
  upstream,
  rules,
  cache,
  byHash,
  keep,
  reorgDepth,
  log,
  dense = DENSE,
  anchorEvery = ANCHOR_EVERY,
}: CreateCheckpointLinkerParameters): CheckpointLinker {
  if (!HASH.test(checkpoint))
    throw new Error(`checkpoint must be a block hash (0x and 64 hex digits), got ${JSON.stringify(checkpoint)}`)
  const hash = checkpoint.toLowerCase() as Hex
  const numberKey = (n: bigint) => cacheKeys.number(n, hash)
  const floorAnchor = (n: bigint) => (n / anchorEvery) * anchorEvery
  const linkedKey = cacheKeys.linked
  let cp: VerifiedHeader | undefined
  let cpLoading: Promise<VerifiedHeader> | undefined
  // Above the checkpoint: linked hashes at every anchorEvery-th number (the LRU holds the rest), and the highest linked block.
  const sparse = new Set<string>()
  let top: { number: bigint; hash: string } | undefined
  // Below it: the checkpoint's ancestors at every anchorEvery-th number, and the lowest one reached.
  const anchors = new Map<bigint, Hex>()
  let lowest: { number: bigint; hash: Hex } | undefined
  // One walk at a time: a request that waited usually finds its block linked by the walk before it.
  let queue: Promise<unknown> = Promise.resolve()
  const serialized = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn)
    queue = run.catch(() => undefined)
    return run
  }

  const where = () => `the checkpoint ${hash}${cp ? ` (block ${cp.number})` : ''}`
  const notLinked = (head: VerifiedHeader, why: string) =>
    new CheckpointError(`block ${head.number} ${head.hash} does not link to ${where()}: ${why}`)
  // `number` given: also a final number's hash cached (in the browser, persisted) by an earlier walk.
  const isLinked = (h: string, number?: bigint) =>
    h === hash ||
    sparse.has(h) ||
    cache.has(linkedKey(h)) ||
    (number !== undefined && cache.get<string>(numberKey(number)) === h)

  function header(): Promise<VerifiedHeader> {
    if (cp) return Promise.resolve(cp)
    cpLoading ??= byHash(hash).then(
      (h) => {
        cp = h
        top = { number: h.number, hash: h.hash }
        return h
      },
      (err: unknown) => {
        cpLoading = undefined // a failure (an unreachable upstream) is asked again next time
        if (err instanceof BlockNotFoundError)
          throw new CheckpointError(`checkpoint ${hash}: the upstream does not know this block`)
        if (err instanceof HeaderVerificationError)
          throw new CheckpointError(`checkpoint ${hash}: ${err.shortMessage}`, { cause: err })
        throw err
      },
    )
    return cpLoading
  }

  /** Headers `low`…`high` asked by number in one tick; verified (each hashes to its hash), keyed by hash, not yet trusted. */
  async function fetchRange(low: bigint, high: bigint): Promise<Map<string, VerifiedHeader>> {
    const calls: Promise<unknown>[] = []
    for (let n = high; n >= low; n--)
      calls.push(upstream.request('eth_getBlockByNumber', [quantity(n), false]).catch(() => null))
    const out = new Map<string, VerifiedHeader>()
    for (const json of await Promise.all(calls)) {
      if (json === null || typeof json !== 'object') continue
      try {
        const h = parseHeader(json as Record<string, unknown>, rules)
        out.set(h.hash, h)
      } catch {
        // A header that does not hash to its hash is never used; the walk fetches the parent by hash.
      }
    }
    return out
  }

  /** The parent of `current` on the walk: from the batch when the upstream's by-number answer links, else by hash. */
  async function parentOf(current: VerifiedHeader, batch: Map<string, VerifiedHeader>, fail: (why: string) => Error) {
    const parent = bytesToHex(current.header.parentHash)
    let next = batch.get(parent)
    let refused = false
    if (!next) {
      refused = true
      try {
        next = await byHash(parent)
      } catch (err) {
        if (err instanceof BlockNotFoundError)
          throw fail(`its ancestor ${parent} (block ${current.number - 1n}) is unknown to the upstream`)
        throw err
      }
    }
    if (next.number !== current.number - 1n)
      throw fail(`block ${current.number} ${current.hash} names as parent a header of block ${next.number}`)
    return { next, refused }
  }

  function progress(what: string, done: bigint, total: bigint, state: { lastLog: number; started: number }) {
    if (!log || Date.now() - state.lastLog < LOG_EVERY_MS) return
    state.lastLog = Date.now()
    log(`checkpoint: ${what}: ${done} of ${total} headers, ${Math.round((Date.now() - state.started) / 1000)} s`)
  }

  /** Walks from `head` (above the checkpoint) down its parent links to a linked hash or to the checkpoint's number. */
  async function walkDown(head: VerifiedHeader, c: VerifiedHeader): Promise<void> {
    if (isLinked(head.hash)) return
    const walked: VerifiedHeader[] = []
    const far: { number: bigint; hash: string }[] = []
    let current = head
    let batch = new Map<string, VerifiedHeader>()
    let batchLow = head.number
    let refusals = 0
    const state = { lastLog: Date.now(), started: Date.now() }
    for (;;) {
      const parent = bytesToHex(current.header.parentHash)
      const parentNumber = current.number - 1n
      if (isLinked(parent, parentNumber)) break
      if (parentNumber <= c.number) throw notLinked(head, `its ancestor at block ${parentNumber} is ${parent}`)
      if (parentNumber < batchLow) {
        // Down to the nearest place a link is expected: just above the highest linked block, or above the anchor below.
        let low = parentNumber - BATCH + 1n
        const expected = top && top.number < parentNumber ? top.number + 1n : floorAnchor(parentNumber - 1n) + 1n
        if (expected > low) low = expected
        if (low <= c.number) low = c.number + 1n
        const keys: string[] = []
        for (let m = low; m <= parentNumber; m++) keys.push(numberKey(m))
        ;[batch] = await Promise.all([fetchRange(low, parentNumber), cache.restore?.(keys)])
        batchLow = low
        progress(
          `linking block ${head.number} to ${where()}`,
          head.number - parentNumber,
          head.number - c.number,
          state,
        )
        if (isLinked(parent, parentNumber)) break
      }
      const { next, refused } = await parentOf(current, batch, (why) => notLinked(head, why))
      if (refused) refusals++
      if (walked.length < dense) walked.push(next)
      else if (next.number % anchorEvery === 0n) far.push({ number: next.number, hash: next.hash })
      current = next
    }
    // Linked: every hash passed descends from the checkpoint, for good (a reorg cannot change a hash's ancestry).
    for (const h of [head, ...walked, ...far]) {
      cache.set(linkedKey(h.hash), h.number, 100)
      if (h.number % anchorEvery === 0n) sparse.add(h.hash)
      if (h !== head && head.number - h.number >= BigInt(reorgDepth)) cache.set(numberKey(h.number), h.hash, 128)
    }
    // The asked block's BLOCKHASH window is kept whole.
    for (const h of walked) if (head.number - h.number <= 256n) keep(h)
    if (!top || head.number > top.number) top = { number: head.number, hash: head.hash }
    if (refusals > 0)
      log?.(
        `checkpoint: ${refusals} headers the upstream gave by number did not link to block ${head.number} ${head.hash}; fetched by hash instead`,
      )
  }

  /** Walks the checkpoint's ancestry down to `n`, from the nearest linked number above it. */
  async function walkBelow(n: bigint, c: VerifiedHeader): Promise<Hex> {
    const ceiling = floorAnchor(n) + anchorEvery < c.number ? floorAnchor(n) + anchorEvery : c.number
    const keys: string[] = []
    for (let m = n; m <= ceiling; m++) keys.push(numberKey(m))
    if (cache.restore) await cache.restore(keys)
    let start: { number: bigint; hash: Hex } | undefined
    for (let m = n; m < ceiling && !start; m++) {
      const h = cache.get<Hex>(numberKey(m))
      if (h) start = { number: m, hash: h }
    }
    if (start?.number === n) return start.hash
    if (!start) {
      const anchored = ceiling === c.number ? c.hash : (anchors.get(ceiling) ?? cache.get<Hex>(numberKey(ceiling)))
      if (anchored) start = { number: ceiling, hash: anchored }
      else start = lowest && lowest.number > n ? lowest : { number: c.number, hash: c.hash }
    }
    const total = start.number - n
    const fail = (why: string) => new CheckpointError(`the chain below ${where()} cannot be followed: ${why}`)
    let current = await byHash(start.hash)
    let batch = new Map<string, VerifiedHeader>()
    let batchLow = current.number
    let refusals = 0
    const state = { lastLog: Date.now(), started: Date.now() }
    while (current.number > n) {
      const parentNumber = current.number - 1n
      if (parentNumber < batchLow) {
        const low = parentNumber - BATCH + 1n > n ? parentNumber - BATCH + 1n : n
        batch = await fetchRange(low, parentNumber)
        batchLow = low
        progress(`following ${where()} down to block ${n}`, start.number - parentNumber, total, state)
      }
      const { next, refused } = await parentOf(current, batch, fail)
      if (refused) refusals++
      current = next
      // The checkpoint's ancestors never change: their numbers are cached (persisted in the browser).
      const near = current.number - n < anchorEvery
      if (current.number % anchorEvery === 0n) anchors.set(current.number, current.hash)
      if (current.number % anchorEvery === 0n || total <= BigInt(dense) || near)
        cache.set(numberKey(current.number), current.hash, 128)
      // The headers next to the block asked are kept: the next request is likely near it.
      if (near) keep(current)
      if (!lowest || current.number < lowest.number) lowest = { number: current.number, hash: current.hash }
    }
    if (refusals > 0)
      log?.(
        `checkpoint: ${refusals} headers the upstream gave by number are not the ancestors of ${where()}; fetched by hash instead`,
      )
    return current.hash
  }

  async function hashAt(n: bigint): Promise<Hex> {
    const c = await header()
    if (n === c.number) return c.hash
    if (n > c.number) throw new Error(`block ${n} is above ${where()}`)
    if (cache.restore) await cache.restore([numberKey(n)])
    return cache.get<Hex>(numberKey(n)) ?? serialized(() => walkBelow(n, c))
  }

  async function link(head: VerifiedHeader): Promise<void> {
    const c = await header()
    if (head.number <= c.number) {
      const want = await hashAt(head.number)
      if (want !== head.hash) throw notLinked(head, `the checkpoint's chain has ${want} at block ${head.number}`)
      return
    }
    if (isLinked(head.hash)) return
    await serialized(() => walkDown(head, c))
  }

  return { hash, header, hashAt, link, numberKey }
}
