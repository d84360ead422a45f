import { Account, KECCAK256_NULL, KECCAK256_RLP, bytesToHex } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import { type CacheBacking, createLruCache } from '../utils/createLruCache.js'
import { createProvenCache } from './createProvenCache.js'

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
})
