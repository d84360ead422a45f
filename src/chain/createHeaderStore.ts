import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { BlockNotFoundError, HeaderVerificationError } from '../errors/state.js'
import type { BlockSelector } from '../types/blockSelector.js'
import type { LruCache } from '../utils/createLruCache.js'
import type { Upstream } from '../upstream/types.js'
import type { ChainRules } from './createChainRules.js'
import { createCheckpointLinker } from './createCheckpointLinker.js'
import { type VerifiedHeader, parseHeader } from './parseHeader.js'
import { cacheKeys } from '../utils/cacheKeys.js'
import type { Hex } from '../types/hex.js'

export type HeaderStore = {
  byHash(hash: string): Promise<VerifiedHeader>
  /** Resolves a block parameter to one verified header (tags always ask the upstream). */
  resolve(block: BlockSelector): Promise<VerifiedHeader>
  /** The cached header a hash or (final) number selects, without asking the upstream. */
  peek(block: BlockSelector): VerifiedHeader | undefined
  /** As peek, after bringing the header (and a final number's hash) in from the persistent cache. */
  peekStored(block: BlockSelector): Promise<VerifiedHeader | undefined>
  /**
   * The block a number not yet final was when last resolved (by number or as the head): a guess for
   * a caller to check against a fresh resolve (a reorg may have replaced it), never an answer itself.
   */
  peekRecent(number: bigint): VerifiedHeader | undefined
  /** Whether a block this deep is taken as final (at least reorgDepth below the highest header seen). */
  isFinal(number: bigint): boolean
  /** Whether blocks resolve through consensus (an anchor) rather than the upstream's word. */
  readonly anchored: boolean
  /** Which trust mode answers and what anchors it (the anchor brought up to date first). */
  trust(): Promise<TrustReport>
  /** With a checkpoint, its header (fetched by hash and verified); undefined without one. */
  checkpoint(): Promise<VerifiedHeader | undefined>
  /** Verifies and caches a block JSON fetched elsewhere (e.g. in a speculative batch). */
  offer(json: unknown, expectedHash?: string): VerifiedHeader
  /** Hash of `head`'s ancestor at `number`, following verified parent links (BLOCKHASH). */
  ancestorHash(head: VerifiedHeader, number: bigint): Promise<Hex>
  /**
   * `head`'s ancestor at `number`: within 256 blocks by `head`'s parent links (proven in every trust
   * mode, and asked of no one again once its headers are known), farther by number as `resolve` does.
   */
  ancestor(head: VerifiedHeader, number: bigint): Promise<VerifiedHeader>
  /** The EVM's blockchain view from `head`: BLOCKHASH answered from verified headers. */
  blockchainFor(head: VerifiedHeader): {
    getBlock(n: number): Promise<{ hash(): Uint8Array }>
    putBlock(): Promise<void>
    shallowCopy(): ReturnType<HeaderStore['blockchainFor']>
  }
}

/**
 * Which execution block consensus vouches for (a beacon light client): under `latest` the optimistic
 * head's, under `safe` and `finalized` the finalized one's. With one, no tag or number is the
 * upstream's word.
 */
export type ExecutionAnchor = {
  head(tag: 'latest' | 'safe' | 'finalized'): Promise<{ number: bigint; hash: Hex }>
  /** What anchors it, as `edgetrace_trust` reports it. */
  report(): Omit<TrustReport, 'mode'>
}

/** One consensus-anchored block: its beacon slot and root, its execution number and hash. */
export type AnchoredBlock = { slot: number; beaconRoot: string; blockNumber: bigint; blockHash: string }

/** Which trust mode answers (edgetrace_trust): what decides which block is real. */
export type TrustReport = {
  /** consensus: a beacon light client; checkpoint: parent links to a trusted block hash; upstream: its word. */
  mode: 'consensus' | 'checkpoint' | 'upstream'
  /** The trusted beacon block root (consensus) or block hash (checkpoint). */
  checkpoint: string | null
  /** Consensus: the checkpoint was the beacon node's own finalized root, taken on first use and pinned (nothing vouched for it). */
  trustedOnFirstUse?: boolean | undefined
  /** The beacon node the light client follows (scheme, host and port). */
  beaconNode: string | null
  finalized: AnchoredBlock | null
  optimistic: AnchoredBlock | null
  syncCommitteePeriod: number | null
  /** How many of the sync committee signed the head. */
  participation: { signed: number; of: number } | null
}

export type CreateHeaderStoreParameters = {
  upstream: Upstream
  rules: ChainRules
  cache: LruCache
  /** Blocks this far below the highest seen are taken as final: their number → hash is cached. */
  reorgDepth?: number
  /**
   * A block hash the user trusts (`--checkpoint`): a block asked by number or tag is then accepted
   * only if its header chain links to it by parent hashes. Without one, the upstream's word on which
   * block is number N is taken as it comes.
   */
  checkpoint?: string | undefined
  /** Hears long checkpoint walks and upstream answers refused on them. */
  log?: ((line: string) => void) | undefined
  /**
   * Consensus' word on which block is real: a tag resolves to the block it vouches for (fetched by
   * that hash, so any other header is refused), a number to that block's ancestor by parent links.
   */
  anchor?: ExecutionAnchor | undefined
  /**
   * EIP-2935's history contract: `hashAt` is block n's hash from `head`'s state (proven by a storage
   * proof), or undefined where it holds none — an anchored block far below the head is found in one
   * step per 8,191 blocks instead of a header per block; `ask` sends for the proof of block n's slot
   * at the block of hash `hash` ahead (with that block's header), for `hashAt` to take once the header verifies.
   */
  history?:
    | {
        hashAt(head: VerifiedHeader, n: bigint): Promise<Hex | undefined>
        ask?(hash: Hex, n: bigint): void
      }
    | undefined
}

const HEADER_BYTES = 2048

/** Headers by hash, each checked: keccak256(RLP(header)) equals the block hash. */
export function createHeaderStore({
  upstream,
  rules,
  cache,
  reorgDepth = 64,
  checkpoint,
  log,
  anchor,
  history,
}: CreateHeaderStoreParameters): HeaderStore {
  let highest = -1n
  const isFinal = (number: bigint) => number <= highest - BigInt(reorgDepth)
  const linker =
    checkpoint === undefined
      ? undefined
      : createCheckpointLinker({ checkpoint, upstream, rules, cache, byHash, keep, reorgDepth, log })
  // With a checkpoint, a number's hash is cached only once linked to it (and under its name: never one
  // cached without it); under consensus, once final by consensus, under `consensus` (persisted too).
  const numberKey = linker
    ? linker.numberKey
    : anchor
      ? (n: bigint) => cacheKeys.number(n, 'consensus')
      : (n: bigint) => cacheKeys.number(n)

  function verify(json: unknown, expectedHash?: string): VerifiedHeader {
    if (json === null || json === undefined) throw new BlockNotFoundError(expectedHash ?? 'requested')
    if (typeof json !== 'object') throw new HeaderVerificationError('block answer is malformed')
    return parseHeader(json as Record<string, unknown>, rules, expectedHash)
  }

  function keep(verified: VerifiedHeader): VerifiedHeader {
    cache.set(cacheKeys.header(verified.hash), verified, HEADER_BYTES)
    if (verified.number > highest) highest = verified.number
    return verified
  }

  const offer = (json: unknown, expectedHash?: string): VerifiedHeader => keep(verify(json, expectedHash))

  /** A header the upstream gave by number or tag: with a checkpoint, kept only once it links to it. */
  async function accept(json: unknown, what: string, number?: bigint): Promise<VerifiedHeader> {
    if (json === null || json === undefined) throw new BlockNotFoundError(what)
    const verified = verify(json)
    if (number !== undefined && verified.number !== number)
      throw new HeaderVerificationError(`asked for block ${number}, got block ${verified.number}`, {
        facts: { block: verified },
      })
    await linker?.link(verified)
    return keep(verified)
  }

  async function byHash(hash: string): Promise<VerifiedHeader> {
    const h = hash.toLowerCase()
    const hit = cache.get<VerifiedHeader>(cacheKeys.header(h))
    if (hit) return hit
    if (cache.restore) {
      await cache.restore([cacheKeys.header(h)])
      const restored = cache.get<VerifiedHeader>(cacheKeys.header(h))
      if (restored) return restored
    }
    return offer(await upstream.request('eth_getBlockByHash', [h, false]), h)
  }

  // Which block each recent number (not yet final) was when last resolved: peekRecent's guesses.
  const recentNumbers = new Map<bigint, string>()
  const RECENT_NUMBERS = 1024
  function noteRecent(header: VerifiedHeader): VerifiedHeader {
    if (header.number > highest - BigInt(reorgDepth)) {
      recentNumbers.delete(header.number)
      recentNumbers.set(header.number, header.hash)
      if (recentNumbers.size > RECENT_NUMBERS) recentNumbers.delete(recentNumbers.keys().next().value as bigint)
    }
    return header
  }

  async function byNumber(n: bigint): Promise<VerifiedHeader> {
    if (cache.restore) await cache.restore([numberKey(n)])
    const known = cache.get<string>(numberKey(n))
    if (known) return byHash(known)
    // At or below the checkpoint, which block is number n is the checkpoint's ancestry's word, not the upstream's.
    if (linker && n <= (await linker.header()).number) return byHash(await linker.hashAt(n))
    if (anchor) return anchoredByNumber(n)
    const header = await accept(
      await upstream.request('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]),
      'requested',
      n,
    )
    if (header.number <= highest - BigInt(reorgDepth)) cache.set(numberKey(n), header.hash, 128)
    return noteRecent(header)
  }

  async function resolve(block: BlockSelector): Promise<VerifiedHeader> {
    if (block.kind === 'hash') return byHash(block.hash)
    if (block.kind === 'number') return byNumber(block.number)
    if (block.tag === 'earliest') return byNumber(0n)
    const tag = block.tag === 'pending' ? 'latest' : block.tag
    if (anchor) return anchoredHead(tag)
    const json = await upstream.request('eth_getBlockByNumber', [tag, false])
    if (json === null) throw new BlockNotFoundError(tag)
    return noteRecent(await accept(json, tag))
  }

  /** The block consensus vouches for under a tag, by its hash: a header the upstream made up does not hash to it. */
  async function anchoredHead(tag: 'latest' | 'safe' | 'finalized'): Promise<VerifiedHeader> {
    const vouched = await anchor!.head(tag)
    const header = await byHash(vouched.hash)
    if (header.number !== vouched.number)
      throw new HeaderVerificationError(
        `block ${vouched.hash} is number ${vouched.number} by consensus, ${header.number} by its header`,
        { facts: { block: header } },
      )
    if (header.number > highest) highest = header.number
    return header
  }

  /**
   * The blocks above consensus' finalized one proven as the anchored head's ancestors, while it is
   * the head (a new head may have moved off them): a range near the head is walked once, not once a block.
   */
  let underHead: { hash: string; numbers: Map<bigint, string> } = { hash: '', numbers: new Map() }
  const UNDER_HEAD_MAX = 8192

  /**
   * Block n as the anchored head's ancestor, followed down its parent links (or hops of the history
   * contract). Every block proven on the way at or below consensus' finalized block is kept by number
   * (in memory and where the cache persists): asked again, it costs no round trip.
   */
  async function anchoredByNumber(n: bigint): Promise<VerifiedHeader> {
    const head = await anchoredHead('latest')
    if (n === head.number) return head
    if (n > head.number) throw new BlockNotFoundError(`${n} (past the consensus-anchored head, block ${head.number})`)
    if (underHead.hash !== head.hash) underHead = { hash: head.hash, numbers: new Map() }
    const numbers = underHead.numbers
    const known = numbers.get(n)
    if (known) return byHash(known)
    const finalized = (await anchor!.head('finalized')).number
    const remember = (number: bigint, hash: string) => {
      if (number <= finalized) cache.set(numberKey(number), hash, 128)
      else if (numbers.size < UNDER_HEAD_MAX) numbers.set(number, hash)
    }
    // The walk starts at the nearest block above n already proven (a range walks each stretch once).
    let from = head
    for (let m = n + 1n; m < head.number && m <= n + WALK_LIMIT; m++) {
      const proven = numbers.get(m) ?? cache.get<string>(numberKey(m))
      if (proven) {
        from = await byHash(proven)
        break
      }
    }
    const hash = await provenAncestorHash(from, n, remember)
    remember(n, hash)
    return byHash(hash)
  }

  /** Blocks nearer the head than this are found by the parent walk (one batch of headers). */
  const WALK_LIMIT = 256n
  const HISTORY_WINDOW = 8191n

  /**
   * `head`'s ancestor n: from the history contract's ring where the head's state holds it (hopping
   * 8,191 blocks back per proof for a farther one), else by the parent walk. Each hop's header is
   * fetched by the proven hash and must carry the number it was proven for.
   */
  async function provenAncestorHash(
    head: VerifiedHeader,
    n: bigint,
    remember: (number: bigint, hash: string) => void,
  ): Promise<Hex> {
    let from = head
    /** Headers n and up to the walk's start, asked by number (each hashed, linked by the walk). */
    let stretch: Promise<Map<string, VerifiedHeader>> | undefined
    const step = (at: bigint) => (at - n > HISTORY_WINDOW ? at - HISTORY_WINDOW : n)
    while (history && from.number - n > WALK_LIMIT) {
      const target = step(from.number)
      const hash = await history.hashAt(from, target)
      if (hash === undefined) break
      // The next hop's proof, or the short stretch from n up to this hop, leaves with this hop's
      // header (each checked once the header is: the proof against its state root, the stretch by its links).
      if (target !== n && target - n > WALK_LIMIT) history.ask?.(hash, step(target))
      else if (target !== n) {
        stretch = fetchStretch(n, target)
        // Awaited by the walk; a failing hop must not leave it unhandled.
        stretch.catch(() => {})
      }
      const header = await byHash(hash)
      if (header.number !== target)
        throw new HeaderVerificationError(
          `the history contract at block ${from.number} names ${hash} as block ${target}, whose header is block ${header.number}`,
          { facts: { block: header } },
        )
      remember(target, hash)
      if (target === n) return hash
      from = header
    }
    if (from.number === n) return from.hash
    // A short walk fetches block n's header with the stretch above it (the caller's next read).
    stretch ??= from.number - n <= WALK_LIMIT ? fetchStretch(n, from.number) : undefined
    return walkParents(from, n, remember, stretch)
  }

  const ancestorHash = (head: VerifiedHeader, number: bigint): Promise<Hex> => walkParents(head, number)

  async function ancestor(head: VerifiedHeader, number: bigint): Promise<VerifiedHeader> {
    if (number === head.number) return head
    if (number > head.number) throw new BlockNotFoundError(`${number} (not an ancestor of block ${head.number})`)
    if (head.number - number > WALK_LIMIT) return byNumber(number)
    const current = knownParents(head, number)
    if (current.number === number) return current
    // The rest of the walk fetched with block `number` itself, in one batch.
    const stretch = fetchStretch(number, current.number)
    const hash = await walkParents(current, number, undefined, stretch)
    await stretch.catch(() => {})
    return byHash(hash)
  }

  /** Down `head`'s parent links through headers already verified (and cached), to `number` at most. */
  function knownParents(
    head: VerifiedHeader,
    number: bigint,
    linked?: (number: bigint, hash: string) => void,
  ): VerifiedHeader {
    let current = head
    while (current.number > number) {
      const parent = cache.get<VerifiedHeader>(cacheKeys.header(bytesToHex(current.header.parentHash)))
      if (!parent) break
      current = parent
      linked?.(current.number, current.hash)
    }
    return current
  }

  /** As ancestorHash, telling `linked` of every header the walk passes (each one an ancestor of `head`). */
  async function walkParents(
    head: VerifiedHeader,
    number: bigint,
    linked?: (number: bigint, hash: string) => void,
    stretch?: Promise<Map<string, VerifiedHeader>>,
  ): Promise<Hex> {
    if (number >= head.number) throw new Error(`block ${number} is not an ancestor of block ${head.number}`)
    // Headers already verified first: a stretch walked once is walked again without asking.
    stretch?.catch(() => {})
    let current = knownParents(head, number + 1n, linked)
    if (current.number === number + 1n) {
      // A stretch asked by the caller carries block `number`'s header, its next read: awaited, not asked twice.
      await stretch?.catch(() => {})
      return bytesToHex(current.header.parentHash)
    }
    // The missing stretch fetched in one batch by number, then the parent links followed (and so checked).
    const prefetched = await (stretch ?? fetchStretch(number + 1n, current.number))
    while (current.number > number + 1n) {
      const parent = bytesToHex(current.header.parentHash)
      current = prefetched.get(parent) ?? (await byHash(parent))
      linked?.(current.number, current.hash)
    }
    return bytesToHex(current.header.parentHash)
  }

  /** Headers being asked by number (fetchStretch), by number. */
  const asking = new Map<bigint, Promise<unknown>>()

  /**
   * Headers `low` to `high` − 1 not known by number, asked by number in one batch (none past 256),
   * each verified (hashed) and kept: what they claim is taken only once a parent walk links them.
   */
  async function fetchStretch(low: bigint, high: bigint): Promise<Map<string, VerifiedHeader>> {
    const prefetched = new Map<string, VerifiedHeader>()
    if (cache.restore && high - low <= 256n) {
      const keys: string[] = []
      for (let n = low; n < high; n++) keys.push(numberKey(n))
      await cache.restore(keys)
    }
    const missing: bigint[] = []
    for (let n = low; n < high; n++) if (!cache.has(numberKey(n))) missing.push(n)
    if (missing.length === 0 || missing.length > 256) return prefetched
    const answers = await Promise.all(
      missing.map((n) => {
        // Two walks over the same blocks at once (a preview's look-backs) ask each header once.
        let asked = asking.get(n)
        if (!asked) {
          asked = upstream.request('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]).catch(() => null)
          asking.set(n, asked)
          asked.then(() => asking.delete(n))
        }
        return asked
      }),
    )
    for (const json of answers) {
      if (json === null) continue
      try {
        const h = offer(json)
        prefetched.set(h.hash, h)
      } catch {
        // A header that does not verify is never used; the walk fetches by hash instead.
      }
    }
    return prefetched
  }

  function blockchainFor(head: VerifiedHeader): ReturnType<HeaderStore['blockchainFor']> {
    const chain = {
      async getBlock(n: number) {
        // A block number at or past the head (a number override) has no hash: zero, as geth's GetHashFn.
        if (BigInt(n) >= head.number) return { hash: () => new Uint8Array(32) }
        const hash = await ancestorHash(head, BigInt(n))
        return { hash: () => hexToBytes(hash) }
      },
      async putBlock() {},
      shallowCopy: () => chain,
    }
    return chain
  }

  function peek(block: BlockSelector): VerifiedHeader | undefined {
    if (block.kind === 'hash') return cache.get<VerifiedHeader>(cacheKeys.header(block.hash))
    if (block.kind === 'number') {
      const hash = cache.get<string>(numberKey(block.number))
      return hash ? cache.get<VerifiedHeader>(cacheKeys.header(hash)) : undefined
    }
    return undefined
  }

  async function peekStored(block: BlockSelector): Promise<VerifiedHeader | undefined> {
    if (cache.restore) {
      if (block.kind === 'number') await cache.restore([numberKey(block.number)])
      const hash =
        block.kind === 'hash'
          ? block.hash
          : block.kind === 'number'
            ? cache.get<string>(numberKey(block.number))
            : undefined
      if (hash) await cache.restore([cacheKeys.header(hash)])
    }
    return peek(block)
  }

  function peekRecent(number: bigint): VerifiedHeader | undefined {
    const hash = recentNumbers.get(number)
    return hash === undefined ? undefined : cache.get<VerifiedHeader>(cacheKeys.header(hash))
  }

  const checkpointHeader = async () => linker?.header()

  async function trust(): Promise<TrustReport> {
    if (anchor) {
      await anchor.head('latest')
      return { mode: 'consensus', ...anchor.report() }
    }
    const none = { beaconNode: null, finalized: null, optimistic: null, syncCommitteePeriod: null, participation: null }
    return checkpoint !== undefined
      ? { mode: 'checkpoint', checkpoint: checkpoint.toLowerCase(), ...none }
      : { mode: 'upstream', checkpoint: null, ...none }
  }

  return {
    anchored: anchor !== undefined,
    trust,
    byHash,
    resolve,
    peek,
    peekStored,
    peekRecent,
    isFinal,
    checkpoint: checkpointHeader,
    offer,
    ancestorHash,
    ancestor,
    blockchainFor,
  }
}
