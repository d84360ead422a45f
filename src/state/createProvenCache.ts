import type { Account } from '@ethereumjs/util'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { keccak256 } from '../utils/keccak256.js'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import { cacheKeys } from '../utils/cacheKeys.js'
import type { LruCache } from '../utils/createLruCache.js'
import { ACCOUNT_BYTES, SLOT_BYTES, codeBytes } from './stateEntryBytes.js'

/**
 * What the verified state source keeps in the shared cache, and under which keys: accounts by
 * (block hash, address), slots by (storage root, slot) — so they carry over between blocks while a
 * contract's storage is unchanged — and code by code hash. Only what a proof (or the codeHash) has
 * proven goes in; a proven absence is kept as null, so that "absent" and "not cached" stay apart.
 */
export type ProvenCache = {
  accountKey(block: VerifiedHeader, address: string): string
  slotKey(storageRoot: Uint8Array, slot: string): string
  codeKey(codeHash: Uint8Array): string
  /** The account in memory: null when it is proven absent, undefined when it is not cached. */
  account(block: VerifiedHeader, address: string): Account | null | undefined
  hasSlot(storageRoot: Uint8Array, slot: string): boolean
  hasCode(codeHash: Uint8Array): boolean
  /** `account` undefined: proven absent. */
  setAccount(block: VerifiedHeader, address: string, account: Account | undefined): void
  setSlot(storageRoot: Uint8Array, slot: string, value: Uint8Array): void
  setCode(codeHash: Uint8Array, code: Uint8Array): void
  /**
   * A verified proof's trie nodes, for a backing tier that keeps them (the shared tier), never in
   * memory. Without such a tier (none, or a browser's IndexedDB) nothing is done: no node is hashed.
   */
  persistTrieNodes(nodes: readonly string[]): void
  /** The persistent tier's restore (see LruCache): undefined without one, so the memory-only path stays synchronous. */
  readonly restore: LruCache['restore']
}

export function createProvenCache(cache: LruCache): ProvenCache {
  const accountKey = (block: VerifiedHeader, address: string) => cacheKeys.account(block.hash, address)
  const slotKey = (storageRoot: Uint8Array, slot: string) => cacheKeys.slot(bytesToHex(storageRoot), slot)
  const codeKey = (codeHash: Uint8Array) => cacheKeys.code(bytesToHex(codeHash))
  return {
    accountKey,
    slotKey,
    codeKey,
    account: (block, address) => cache.get<Account | null>(accountKey(block, address)),
    hasSlot: (storageRoot, slot) => cache.has(slotKey(storageRoot, slot)),
    hasCode: (codeHash) => cache.has(codeKey(codeHash)),
    setAccount: (block, address, account) => cache.set(accountKey(block, address), account ?? null, ACCOUNT_BYTES),
    setSlot: (storageRoot, slot, value) => cache.set(slotKey(storageRoot, slot), value, SLOT_BYTES),
    setCode: (codeHash, code) => cache.set(codeKey(codeHash), code, codeBytes(code)),
    persistTrieNodes(nodes) {
      const persist = cache.persist
      if (!persist || !cache.keepsTrieNodes) return
      for (const hex of nodes) {
        const node = hexToBytes(hex as `0x${string}`)
        persist(cacheKeys.trieNode(bytesToHex(keccak256(node))), node, node.length + 80)
      }
    },
    get restore() {
      return cache.restore
    },
  }
}
