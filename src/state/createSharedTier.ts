import { bytesToHex, equalsBytes, hexToBytes } from '@ethereumjs/util'
import { keccak256 } from '../utils/keccak256.js'
import { type ReceiptOutcome, receiptOutcomes } from '../chain/receiptOutcomes.js'
import { receiptsRoot } from '../chain/receiptsRoot.js'
import type { Hex } from '../types/hex.js'
import { type CacheKeyKind, cacheKeyKind, cacheKeys, parseCacheKey } from '../utils/cacheKeys.js'
import { type StoredRawBlock, checkRawBlockReceipts } from './checkRawBlockReceipts.js'
import type { PersistentStore, PersistentStoreStats } from './createPersistentBacking.js'
import { decodeSharedValue, encodeSharedValue } from './sharedValueCodec.js'
import { type HeaderRoots, storedHeaderRoots } from './storedHeaderRoots.js'
import { decodeStorageLeaf } from './verifyProof.js'
import { walkTrie } from './walkTrie.js'

/**
 * A key-value store many processes share (Redis, Valkey): strings by key. Each call is bounded in
 * time by the store's client and throws when the store cannot answer.
 */
export type SharedKv = {
  getMany(keys: readonly string[]): Promise<(string | undefined)[]>
  setMany(entries: readonly (readonly [key: string, value: string])[]): Promise<void>
  /**
   * Deletes each key whose value is still the one given (compare and delete, in one step), so an
   * entry another process (or this one) wrote since is kept.
   */
  deleteUnchanged(entries: readonly (readonly [key: string, value: string])[]): Promise<void>
  /** Removes every entry this tier wrote (its namespace only). */
  clear(): Promise<void>
}

export type SharedTierStats = PersistentStoreStats & {
  /**
   * Entries read that did not verify, deleted: a header, code or trie node that does not hash to its
   * key, receipts that do not hash to their header's receiptsRoot, a raw block whose receipt
   * summaries differ from its verified receipts or whose header or transactions do not verify where
   * it is used, a malformed or oversized hint.
   */
  rejected: number
  /** Calls the store failed or did not answer in time. */
  failures: number
}

export type SharedTier = PersistentStore & {
  stats(): SharedTierStats
  /**
   * Told of an entry read from here that did not check out: by the memory cache's backing when it
   * does not decode (see createPersistentCodec), by a reader when it does not verify where it is
   * used (a raw block: see PersistentBacking.reject). Deleted and counted.
   */
  rejected(key: string): void
}

/**
 * Read back as they are: each is checked when decoded (createPersistentCodec): a header, code and a
 * trie node against the hash in its key, a hint (checkHint) for its shape and size.
 */
const DIRECT: ReadonlySet<CacheKeyKind | 'unknown'> = new Set([
  'header',
  'code',
  'trieNode',
  'footprint',
  'calleeCode',
  'callAccessList',
  'blockAccessLists',
  // A Sourcify answer: matched against the verified code wherever it is used (createSourcifyLookup).
  'sourcify',
])
/** Every kind the shared store keeps: the above, and a block's receipts and raw block, checked here against its header. */
const STORED: ReadonlySet<CacheKeyKind | 'unknown'> = new Set([...DIRECT, 'rawReceipts', 'rawBlock'])
const HASH = /^0x[0-9a-f]{64}$/
/** A value larger than this (a store's bytes are not trusted) reads as none. */
const MAX_VALUE_BYTES = 8 * 1024 * 1024
/** A walk down a trie of 32-byte keys meets at most 65 nodes; a round of reads per node level. */
const MAX_ROUNDS = 66

/**
 * The shared verified cache tier (`--cache.redis`): a persistent store (see createPersistentBacking)
 * over a key-value store that other edgetrace processes share, and that none of them trusts. Every
 * entry read is checked as if the upstream had sent it; one that does not check out is deleted
 * (compare and delete), counted in `rejected`, and read as a miss, so the upstream is asked.
 *
 * - Headers (by hash) and code (by code hash) are kept as they are; both check themselves against
 *   their key when read (the persistent codec re-hashes them; a header read here for its roots is
 *   re-hashed here).
 * - Accounts and slots are not kept: the trie nodes of every proof that verified are, each by its
 *   keccak hash. An account at a block is read by walking the state trie from the block's
 *   stateRoot (its header read and re-hashed first), a slot by walking the storage trie from the
 *   storage root in its key, node by node, every node checked against the hash its parent gave: a
 *   walk that ends is a Merkle proof, as good as the upstream's. A node that does not hash to its
 *   key is deleted; a missing one makes the item a miss (asked of the upstream).
 * - A block's receipts (EIP-2718 encodings, by block hash) are read with the block's header in the
 *   same round trip: the header re-hashed, the receipts' trie built and its root compared with the
 *   header's receiptsRoot. No header kept: a miss.
 * - A raw block (loadBlock's: the upstream's block JSON and receipt summaries) is read with its
 *   header and receipts in the same round trip. Its summaries (gas used, status) must say what the
 *   verified receipts say; without verified receipts they are left out (its reader asks the
 *   upstream for them). Its header and transactions are checked where it is used (the header
 *   re-hashed, the transactions against transactionsRoot, each hash and sender); one that fails
 *   there is rejected through `rejected`.
 * - Hints (a call's footprint and callee code, the upstream's access lists of a call or a block):
 *   only ever steer what is prefetched, all of it proven before use; each is checked for its shape
 *   and bounded in size when decoded (checkHint), so a poisoned one costs a bounded prefetch.
 * - Not shared, since a reader cannot check them for less than making them again: a final block's
 *   number and where a transaction was mined (the upstream's word), Bor validator snapshots (a
 *   validator set with proposer priorities, the sum of every header applied since the set was
 *   known: checking one means walking those headers again, and a wrong one changes bor_* answers),
 *   and the ots touch indexes (a replay's result).
 */
export function createSharedTier({ kv }: { kv: SharedKv }): SharedTier {
  let reads = 0
  let hits = 0
  let writes = 0
  let rejected = 0
  let failures = 0

  /** The text last read under each key of the latest reads, for a rejection to delete only that text. */
  let lastRead = new Map<string, string>()
  const reject = (keys: readonly string[]) => {
    const entries = keys.flatMap((k) => {
      const text = lastRead.get(k)
      lastRead.delete(k)
      return text === undefined ? [] : [[k, text] as const]
    })
    if (entries.length === 0) return
    rejected += entries.length
    kv.deleteUnchanged(entries).catch(() => failures++)
  }

  async function fetchMany(keys: readonly string[]): Promise<(unknown | undefined)[]> {
    if (keys.length === 0) return []
    const texts = await kv.getMany(keys)
    keys.forEach((key, i) => {
      const text = texts[i]
      if (text !== undefined) lastRead.set(key, text)
    })
    return texts.map((t) => (t === undefined ? undefined : decodeSharedValue(t, MAX_VALUE_BYTES)))
  }

  /**
   * Checks read against headers, for one read: each header's roots once its RLP hashes to its key
   * (a bad header deleted), each block's receipts once they hash to its receiptsRoot (bad ones
   * deleted), with what each says of its transaction. Undefined: not kept, or deleted.
   */
  function checker(values: ReadonlyMap<string, unknown>) {
    const roots = new Map<string, HeaderRoots | undefined>()
    const receipts = new Map<string, Promise<{ encoded: Uint8Array[]; outcomes?: ReceiptOutcome[] } | undefined>>()
    const rootsOf = (blockHash: string): HeaderRoots | undefined => {
      const key = cacheKeys.header(blockHash)
      if (roots.has(key)) return roots.get(key)
      const stored = values.get(key)
      const found = stored === undefined ? undefined : storedHeaderRoots(key, stored)
      if (stored !== undefined && !found) reject([key])
      roots.set(key, found)
      return found
    }
    const receiptsOf = (blockHash: string) => {
      let checked = receipts.get(blockHash)
      if (!checked) {
        checked = (async () => {
          const key = cacheKeys.rawReceipts(blockHash)
          const stored = values.get(key)
          const header = rootsOf(blockHash)
          if (stored === undefined || !header) return undefined
          const encoded =
            Array.isArray(stored) && stored.every((r) => r instanceof Uint8Array && r.length > 0)
              ? (stored as Uint8Array[])
              : undefined
          if (!encoded || !equalsBytes(await receiptsRoot(encoded), header.receiptsRoot)) {
            reject([key])
            return undefined
          }
          try {
            return { encoded, outcomes: receiptOutcomes(encoded) }
          } catch {
            return { encoded } // receipts the root vouches for, not read here: summaries then unchecked
          }
        })()
        receipts.set(blockHash, checked)
      }
      return checked
    }
    return { rootsOf, receiptsOf }
  }

  /** The trie node with this hash, checked; undefined when the store has none (or a bad one, then deleted). */
  async function nodesOf(hashes: readonly Hex[], into: Map<Hex, Uint8Array | null>) {
    const keys = hashes.map((h) => cacheKeys.trieNode(h))
    const values = await fetchMany(keys)
    const bad: string[] = []
    hashes.forEach((hash, i) => {
      const node = values[i]
      if (node instanceof Uint8Array && equalsBytes(keccak256(node), hexToBytes(hash))) into.set(hash, node)
      else {
        if (values[i] !== undefined) bad.push(keys[i]!)
        into.set(hash, null)
      }
    })
    reject(bad)
  }

  /** Accounts and slots by walking their tries; the stored form of each found (see createPersistentCodec). */
  async function walk(
    walks: { index: number; root: Uint8Array; key: Uint8Array; slot: boolean }[],
    out: unknown[],
  ): Promise<void> {
    const nodes = new Map<Hex, Uint8Array | null>()
    let pending = walks
    for (let round = 0; round < MAX_ROUNDS && pending.length > 0; round++) {
      const missing = new Set<Hex>()
      const next: typeof walks = []
      for (const w of pending) {
        let result: ReturnType<typeof walkTrie>
        try {
          result = walkTrie(w.root, w.key, (h) => nodes.get(h) ?? undefined)
        } catch {
          continue // a miss: the upstream is asked
        }
        if ('value' in result) {
          try {
            out[w.index] = w.slot ? decodeStorageLeaf(result.value) : result.value
          } catch {}
          continue
        }
        if (nodes.get(result.missing) === null) continue // the store lacks it: a miss
        missing.add(result.missing)
        next.push(w)
      }
      if (missing.size > 0) await nodesOf([...missing], nodes)
      pending = next
    }
  }

  return {
    async getMany(keys) {
      reads += keys.length
      // A rejection follows the read it is about (the backing decodes what this returns at once);
      // reads may overlap, so texts are kept across them, up to a bound.
      if (lastRead.size > 4096) lastRead = new Map()
      const out: unknown[] = new Array(keys.length).fill(undefined)
      const direct: number[] = []
      const accounts: { index: number; blockHash: string; address: string }[] = []
      const blocks: { index: number; kind: 'rawReceipts' | 'rawBlock'; hash: string }[] = []
      const walks: Parameters<typeof walk>[0] = []
      keys.forEach((key, index) => {
        const parsed = parseCacheKey(key)
        if (DIRECT.has(parsed.kind)) direct.push(index)
        else if ((parsed.kind === 'rawReceipts' || parsed.kind === 'rawBlock') && HASH.test(parsed.hash))
          blocks.push({ index, kind: parsed.kind, hash: parsed.hash })
        else if (parsed.kind === 'account') accounts.push({ index, ...parsed })
        else if (
          parsed.kind === 'slot' &&
          /^0x[0-9a-f]{64}$/.test(parsed.storageRoot) &&
          /^0x[0-9a-f]{64}$/.test(parsed.slot)
        )
          walks.push({
            index,
            root: hexToBytes(parsed.storageRoot as Hex),
            key: keccak256(hexToBytes(parsed.slot as Hex)),
            slot: true,
          })
      })
      try {
        // One round trip: the entries read as they are, the raw blocks and receipts asked for, and
        // what they are checked against: the headers (of the blocks whose accounts, receipts or raw
        // block are asked for) and a raw block's receipts.
        const wanted = new Set<string>(direct.map((i) => keys[i]!))
        for (const a of accounts) wanted.add(cacheKeys.header(a.blockHash))
        for (const b of blocks) {
          wanted.add(cacheKeys.header(b.hash)).add(cacheKeys.rawReceipts(b.hash))
          if (b.kind === 'rawBlock') wanted.add(cacheKeys.rawBlock(b.hash))
        }
        const asked = [...wanted]
        const read = await fetchMany(asked)
        const values = new Map(asked.map((key, i) => [key, read[i]]))
        for (const index of direct) out[index] = values.get(keys[index]!)
        const { rootsOf, receiptsOf } = checker(values)
        await Promise.all(
          blocks.map(async (b) => {
            const receipts = await receiptsOf(b.hash)
            if (b.kind === 'rawReceipts') {
              out[b.index] = receipts?.encoded
              return
            }
            const key = keys[b.index]!
            const stored = values.get(key)
            if (stored === undefined) return
            const raw = stored as StoredRawBlock | null
            const checked =
              typeof raw === 'object' && raw !== null ? checkRawBlockReceipts(raw, receipts?.outcomes) : undefined
            if (checked) out[b.index] = checked
            else reject([key])
          }),
        )
        for (const a of accounts) {
          const root = rootsOf(a.blockHash)?.stateRoot
          if (!root || !/^0x[0-9a-f]{40}$/.test(a.address)) continue
          walks.push({
            index: a.index,
            root,
            key: keccak256(hexToBytes(a.address as Hex)),
            slot: false,
          })
        }
        await walk(walks, out)
      } catch {
        failures++
        return new Array(keys.length).fill(undefined)
      }
      hits += out.filter((v) => v !== undefined).length
      return out
    },
    async setMany(entries) {
      // A value too large to be read back is not written.
      const kept = entries.flatMap(([key, stored]) => {
        if (!STORED.has(cacheKeyKind(key))) return []
        const text = encodeSharedValue(stored)
        return text.length > MAX_VALUE_BYTES ? [] : [[key, text] as const]
      })
      if (kept.length === 0) return
      writes += kept.length
      try {
        await kv.setMany(kept)
      } catch (err) {
        failures++
        throw err
      }
    },
    tier: 'shared',
    keepsTrieNodes: true,
    accepts: (key) => STORED.has(cacheKeyKind(key)),
    rejected: (key) => reject([key]),
    clear: () => kv.clear(),
    async flush() {},
    stats: () => ({ entries: 0, bytes: 0, budget: 0, reads, hits, writes, evictions: 0, rejected, failures }),
  }
}

/** The keccak hash of a trie node, as its key in the shared tier. */
export const trieNodeKey = (node: Uint8Array): string => cacheKeys.trieNode(bytesToHex(keccak256(node)))
