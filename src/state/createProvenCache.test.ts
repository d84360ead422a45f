import { Account, KECCAK256_NULL, KECCAK256_RLP, bytesToHex } from '@ethereumjs/util'
import { keccak_256 as keccak256 } from '@noble/hashes/sha3.js'
import { describe, expect, it } from 'vitest'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import { createChainRules } from '../chain/createChainRules.js'
import { type CacheBacking, createLruCache } from '../utils/createLruCache.js'
import { type PersistentStore, createPersistentBacking } from './createPersistentBacking.js'
import { createPersistentCodec } from './createPersistentCodec.js'
import { createProvenCache } from './createProvenCache.js'

/** A persistent store in memory that keeps whatever it is given, as IndexedDB's does (or, told so, trie nodes too as the shared tier does). */
function memoryStore(keepsTrieNodes?: boolean): PersistentStore & { written: Map<string, unknown> } {
  const written = new Map<string, unknown>()
  return {
    written,
    ...(keepsTrieNodes === undefined ? {} : { keepsTrieNodes }),
    getMany: async (keys) => keys.map((k) => written.get(k)),
    async setMany(entries) {
      for (const [key, value] of entries) written.set(key, value)
    },
    async clear() {
      written.clear()
    },
    stats: () => ({ entries: written.size, bytes: 0, budget: 0, reads: 0, hits: 0, writes: 0, evictions: 0 }),
    async flush() {},
  }
}

const rules = createChainRules({ chainId: 31337n, hardfork: 'prague' })
/** Two proof nodes (any bytes: the cache files them by their keccak hash). */
const nodes = ['0xc58320aabb01', `0x${'e2'.repeat(40)}`]

const block = { number: 7n, hash: `0x${'77'.repeat(32)}` } as VerifiedHeader
const address = '0x00000000000000000000000000000000000000aa'
const slot = `0x${'00'.repeat(31)}01`
const root = new Uint8Array(32).fill(0xab)

describe('createProvenCache', () => {
  it('files entries under the keys the persistent store has always used', () => {
    const proven = createProvenCache(createLruCache(1 << 20))
    expect(proven.accountKey(block, address)).toBe(`a:${block.hash}:${address}`)
    expect(proven.slotKey(root, slot)).toBe(`s:0x${'ab'.repeat(32)}:${slot}`)
    expect(proven.codeKey(KECCAK256_NULL)).toBe(`c:${bytesToHex(KECCAK256_NULL)}`)
  })

  it('keeps a proven absence (null) apart from an account it does not hold (undefined)', () => {
    const cache = createLruCache(1 << 20)
    const proven = createProvenCache(cache)
    expect(proven.account(block, address)).toBeUndefined()
    proven.setAccount(block, address, undefined)
    expect(proven.account(block, address)).toBeNull()
    expect(cache.get(proven.accountKey(block, address))).toBeNull()
    const account = new Account(1n, 2n, KECCAK256_RLP, KECCAK256_NULL)
    proven.setAccount(block, address, account)
    expect(proven.account(block, address)).toBe(account)
  })

  it('weighs accounts, slots and code as the budget expects', () => {
    const cache = createLruCache(1 << 20)
    const proven = createProvenCache(cache)
    proven.setAccount(block, address, undefined)
    expect(cache.stats().bytes).toBe(256)
    proven.setSlot(root, slot, new Uint8Array([1]))
    expect(proven.hasSlot(root, slot)).toBe(true)
    expect(cache.stats().bytes).toBe(256 + 192)
    const code = new Uint8Array(1000)
    proven.setCode(root, code)
    expect(proven.hasCode(root)).toBe(true)
    expect(cache.stats().bytes).toBe(256 + 192 + 1096)
  })

  it("has the persistent tier's restore only when there is one", () => {
    expect(createProvenCache(createLruCache(1 << 20)).restore).toBeUndefined()
    const backing: CacheBacking = { load: async () => new Map(), save() {} }
    expect(createProvenCache(createLruCache(1 << 20, backing)).restore).toBeTypeOf('function')
  })

  it("hands a proof's trie nodes, keyed by their hash, only to a backing that keeps them (the shared tier's)", async () => {
    const shared = memoryStore(true)
    const backing = createPersistentBacking({ store: shared, codec: createPersistentCodec(rules) })
    const cache = createLruCache(1 << 20, backing)
    expect(cache.keepsTrieNodes).toBe(true)
    createProvenCache(cache).persistTrieNodes(nodes)
    await backing.flush()
    const keys = nodes.map((n) => `tn:${bytesToHex(keccak256(Buffer.from(n.slice(2), 'hex')))}`)
    expect([...shared.written.keys()].sort()).toEqual([...keys].sort())
    // Never in memory: only the backing wanted them.
    expect(cache.stats().entries).toBe(0)
  })

  it('gives a browser-like backing that does not keep trie nodes none of them, and hashes none', async () => {
    // An IndexedDB-like store (keeps every kind the codec persists, says nothing of trie nodes).
    const idb = memoryStore()
    const backing = createPersistentBacking({ store: idb, codec: createPersistentCodec(rules) })
    const cache = createLruCache(1 << 20, backing)
    expect(cache.keepsTrieNodes).toBe(false)
    const proven = createProvenCache(cache)
    proven.persistTrieNodes(nodes)
    // A node is hashed for its key only to be handed over: a backing that counts what it is handed gets nothing.
    const saved: string[] = []
    const counting: CacheBacking = { load: async () => new Map(), save: (key) => void saved.push(key) }
    createProvenCache(createLruCache(1 << 20, counting)).persistTrieNodes(nodes)
    expect(saved).toEqual([])
    // What it does keep still reaches it.
    proven.setCode(KECCAK256_NULL, new Uint8Array())
    await backing.flush()
    expect([...idb.written.keys()]).toEqual([`c:${bytesToHex(KECCAK256_NULL)}`])
  })
})
