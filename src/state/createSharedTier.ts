import { RLP } from '@ethereumjs/rlp'
import { bytesToHex, equalsBytes, hexToBytes } from '@ethereumjs/util'
import { keccak_256 as keccak256 } from '@noble/hashes/sha3.js'
import type { Hex } from '../types/hex.js'
import { type CacheKeyKind, cacheKeyKind, cacheKeys, parseCacheKey } from '../utils/cacheKeys.js'
import type { PersistentStore, PersistentStoreStats } from './createPersistentBacking.js'
import { decodeSharedValue, encodeSharedValue } from './sharedValueCodec.js'
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
  /** Entries read that did not verify (a header that does not hash to its key, code or a trie node that does not hash to its hash): deleted. */
  rejected: number
  /** Calls the store failed or did not answer in time. */
  failures: number
}

export type SharedTier = PersistentStore & {
  stats(): SharedTierStats
  /** Told by the memory cache's backing of an entry it read that did not decode (did not verify): deleted and counted. */
  rejected(key: string): void
}

/** Kept in the shared store as they are: each checks itself against its key when read back. */
const STORED: ReadonlySet<CacheKeyKind | 'unknown'> = new Set(['header', 'code', 'trieNode'])
/** A value larger than this (a store's bytes are not trusted) reads as none. */
const MAX_VALUE_BYTES = 8 * 1024 * 1024
/** A walk down a trie of 32-byte keys meets at most 65 nodes; a round of reads per node level. */
const MAX_ROUNDS = 66

/**
 * The shared verified cache tier (`--cache.redis`): a persistent store (see createPersistentBacking)
 * over a key-value store that other edgetrace processes share, and that none of them trusts.
 *
 * - Headers (by hash) and code (by code hash) are kept as they are; both check themselves against
 *   their key when read (the persistent codec re-hashes them; a header read here for its stateRoot
 *   is re-hashed here), and one that does not is deleted and counted.
 * - Accounts and slots are not kept: the trie nodes of every proof that verified are, each by its
 *   keccak hash. An account at a block is read by walking the state trie from the block's
 *   stateRoot (its header read and re-hashed first), a slot by walking the storage trie from the
 *   storage root in its key, node by node, every node checked against the hash its parent gave: a
 *   walk that ends is a Merkle proof, as good as the upstream's. A node that does not hash to its
 *   key is deleted; a missing one makes the item a miss (asked of the upstream).
 * - What cannot be checked from its key alone (a final block's number, where a transaction was
 *   mined, Bor snapshots, hints) is not shared.
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
      const walks: Parameters<typeof walk>[0] = []
      keys.forEach((key, index) => {
        const parsed = parseCacheKey(key)
        if (STORED.has(parsed.kind)) direct.push(index)
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
        // The entries kept as they are, and the headers of the blocks whose accounts are asked for.
        const headerKeys = [...new Set(accounts.map((a) => cacheKeys.header(a.blockHash)))]
        const values = await fetchMany([...direct.map((i) => keys[i]!), ...headerKeys])
        direct.forEach((index, i) => {
          out[index] = values[i]
        })
        const stateRoots = new Map<string, Uint8Array | undefined>()
        headerKeys.forEach((key, i) => {
          const stored = values[direct.length + i]
          const root = stored === undefined ? undefined : stateRootOf(key, stored)
          if (stored !== undefined && root === undefined) reject([key])
          stateRoots.set(key, root)
        })
        for (const a of accounts) {
          const root = stateRoots.get(cacheKeys.header(a.blockHash))
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
      const kept = entries.filter(([key]) => STORED.has(cacheKeyKind(key)))
      if (kept.length === 0) return
      writes += kept.length
      try {
        await kv.setMany(kept.map(([key, stored]) => [key, encodeSharedValue(stored)] as const))
      } catch (err) {
        failures++
        throw err
      }
    },
    tier: 'shared',
    accepts: (key) => STORED.has(cacheKeyKind(key)),
    rejected: (key) => reject([key]),
    clear: () => kv.clear(),
    async flush() {},
    stats: () => ({ entries: 0, bytes: 0, budget: 0, reads, hits, writes, evictions: 0, rejected, failures }),
  }
}

/** The keccak hash of a trie node, as its key in the shared tier. */
export const trieNodeKey = (node: Uint8Array): string => cacheKeys.trieNode(bytesToHex(keccak256(node)))

/**
 * The stateRoot of a header kept under `key` (its stored form: see createPersistentCodec), once its
 * RLP hashes to the key's hash; undefined when it does not (or is not a header's stored form).
 */
function stateRootOf(key: string, stored: unknown): Uint8Array | undefined {
  const rlp = (stored as { rlp?: unknown } | null)?.rlp
  if (!(rlp instanceof Uint8Array) || key !== cacheKeys.header(bytesToHex(keccak256(rlp)))) return undefined
  try {
    const fields = RLP.decode(rlp)
    const root = Array.isArray(fields) ? fields[3] : undefined
    return root instanceof Uint8Array && root.length === 32 ? root : undefined
  } catch {
    return undefined
  }
}
