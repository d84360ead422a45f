import type { AccountFields, StateManagerInterface } from '@ethereumjs/common'
import { Account, type Address, bytesToHex, setLengthLeft, unpadBytes } from '@ethereumjs/util'
import { keccak256 } from '../utils/keccak256.js'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import type { AbortCheck } from '../types/deadline.js'
import type { Hex } from '../types/hex.js'
import type { StateSource } from './types.js'

type StorageOverlay = { cleared: boolean; slots: Map<Hex, Uint8Array> }
type Undo = () => void

/** What an execution read from the base state: each account, slot and code as first seen. */
export type BaseReads = {
  accounts: Map<Hex, Account | undefined>
  storage: Map<Hex, Map<Hex, Uint8Array>>
  code: Map<Hex, Uint8Array>
}

export type OverlayStateManager = StateManagerInterface & {
  readonly block: VerifiedHeader
  /** Base-state values this execution read (first read from the base, whatever the scope). */
  readonly baseReads: BaseReads
  /**
   * Values as this manager returned them on their first read since the last beginReadScope() (or
   * creation): the state one transaction saw, for prestate and state diffs. An account absent then
   * is `undefined`.
   */
  readonly scopeReads: BaseReads
  /** Starts a new read scope (before each traced transaction). */
  beginReadScope(): void
  /** Addresses written in the overlay (for post-state read-back). */
  dirtyAddresses(): Hex[]
  /** The slots of `address` written in the overlay (32-byte keys). */
  dirtySlots(address: Hex): Hex[]
  /** Accounts deleted by this execution (self-destructed, or touched-and-empty). */
  isDeleted(address: Hex): boolean
  /** Code of an account in the base state (not the overlay). */
  baseCode(address: Hex): Promise<Uint8Array>
  /**
   * Synchronously, what a read would answer now if it needs nothing from the source (a JavaScript
   * tracer's `db`): the account (undefined: absent), a slot, code — or 'unknown' when the base state
   * has not been read there yet. Not recorded as a read.
   */
  peekAccount(address: Hex): Account | undefined | 'unknown'
  peekStorage(address: Hex, slot: Hex): Uint8Array | 'unknown'
  /**
   * A read of a slot (address lowercase, slot 32 bytes as 0x and 64 hex digits) answered at once
   * when it needs nothing from the source, as getStorage answers it and recorded as its read is;
   * undefined otherwise (then getStorage reads it). The wasm engine's SLOAD.
   */
  storageAtHand(address: Hex, slot: Hex): Uint8Array | undefined
  peekCode(address: Hex): Uint8Array | 'unknown'
  /**
   * A new overlay over the same base that starts where this one is (its writes, and its base reads
   * as first seen), reading under `signal`: what is done in either is not seen by the other. Only
   * between executions (no open checkpoint).
   */
  fork(signal?: AbortCheck): OverlayStateManager
}

/** Where a fork starts: the writes and base reads of the overlay it is taken from. */
type OverlaySeed = {
  accounts: Map<Hex, Account | null>
  storage: Map<Hex, StorageOverlay>
  code: Map<Hex, Uint8Array>
  baseReads: BaseReads
}

export type CreateOverlayStateManagerParameters = {
  source: StateSource
  /** The block whose post-state is the base (the parent, when replaying a block). */
  block: VerifiedHeader
  /** Aborts reads once set (execution timeout). */
  signal?: AbortCheck | undefined
  /** Start from another overlay's writes and reads (fork). */
  seed?: OverlaySeed | undefined
}

const copyAccount = (a: Account) => new Account(a.nonce, a.balance, a.storageRoot, a.codeHash, a.codeSize, a.version)

/**
 * The state one execution sees: an in-memory overlay with a checkpoint journal over the verified
 * base state of one block. Base reads go to the StateSource (verified, cached across executions);
 * writes stay here and vanish with the execution.
 */
export function createOverlayStateManager({
  source,
  block,
  signal,
  seed,
}: CreateOverlayStateManagerParameters): OverlayStateManager {
  // Entries are never changed in place (a write replaces the account, slot map or code), so a fork
  // can share them; the maps themselves are copied.
  const accounts = new Map<Hex, Account | null>(seed?.accounts)
  const storage = new Map<Hex, StorageOverlay>(seed?.storage)
  const code = new Map<Hex, Uint8Array>(seed?.code)
  const journal: Undo[][] = []
  const baseReads: BaseReads = {
    accounts: new Map(seed?.baseReads.accounts),
    storage: new Map([...(seed?.baseReads.storage ?? [])].map(([a, slots]) => [a, new Map(slots)])),
    code: new Map(seed?.baseReads.code),
  }
  let scopeReads: BaseReads = { accounts: new Map(), storage: new Map(), code: new Map() }
  const scopeSlot = (addr: Hex, slot: Hex, value: Uint8Array) => {
    let reads = scopeReads.storage.get(addr)
    if (!reads) scopeReads.storage.set(addr, (reads = new Map()))
    if (!reads.has(slot)) reads.set(slot, value)
    return value
  }
  const scopeAccount = (addr: Hex, account: Account | undefined) => {
    if (!scopeReads.accounts.has(addr)) scopeReads.accounts.set(addr, account ? copyAccount(account) : undefined)
    return account ? copyAccount(account) : undefined
  }
  let original = new Map<string, Uint8Array>()

  const key = (address: Address) => address.toString().toLowerCase() as Hex
  function record(undo: Undo) {
    journal[journal.length - 1]?.push(undo)
  }
  function checkAbort() {
    if (signal?.aborted) throw signal.reason
  }

  async function baseAccount(addr: Hex): Promise<Account | undefined> {
    checkAbort()
    // The base state is one block's and never changes: what was read once is answered again here,
    // without going back to the source (a loop reading the same slots pays a map lookup per read).
    if (baseReads.accounts.has(addr)) return baseReads.accounts.get(addr)
    const account = await source.getAccount(block, addr)
    if (!baseReads.accounts.has(addr)) baseReads.accounts.set(addr, account)
    return account
  }

  function recordSlot(addr: Hex, slot: Hex, value: Uint8Array) {
    let reads = baseReads.storage.get(addr)
    if (!reads) baseReads.storage.set(addr, (reads = new Map()))
    if (!reads.has(slot)) reads.set(slot, value)
  }

  async function setAccount(addr: Hex, value: Account | null) {
    const had = accounts.has(addr)
    const prev = accounts.get(addr)
    record(() => (had ? accounts.set(addr, prev!) : accounts.delete(addr)))
    accounts.set(addr, value)
  }

  function setStorageOverlay(addr: Hex, next: StorageOverlay) {
    const prev = storage.get(addr)
    record(() => (prev ? storage.set(addr, prev) : storage.delete(addr)))
    storage.set(addr, next)
  }

  function setCode(addr: Hex, value: Uint8Array) {
    const had = code.has(addr)
    const prev = code.get(addr)
    record(() => (had ? code.set(addr, prev!) : code.delete(addr)))
    code.set(addr, value)
  }

  const manager: OverlayStateManager = {
    block,
    baseReads,
    get scopeReads() {
      return scopeReads
    },
    beginReadScope() {
      scopeReads = { accounts: new Map(), storage: new Map(), code: new Map() }
    },
    dirtyAddresses: () => [...new Set([...accounts.keys(), ...storage.keys(), ...code.keys()])],
    dirtySlots: (address) => [...(storage.get(address)?.slots.keys() ?? [])],
    isDeleted: (address) => accounts.has(address) && accounts.get(address) === null,
    baseCode: (address) => source.getCode(block, address),
    peekAccount(address) {
      const addr = address.toLowerCase() as Hex
      if (accounts.has(addr)) return accounts.get(addr) ?? undefined
      return baseReads.accounts.has(addr) ? baseReads.accounts.get(addr) : 'unknown'
    },
    peekStorage(address, slot) {
      const addr = address.toLowerCase() as Hex
      const overlay = storage.get(addr)
      const hit = overlay?.slots.get(slot)
      if (hit !== undefined) return hit
      if (overlay?.cleared) return new Uint8Array(0)
      return baseReads.storage.get(addr)?.get(slot) ?? 'unknown'
    },
    peekCode(address) {
      const addr = address.toLowerCase() as Hex
      const overlay = code.get(addr)
      if (overlay !== undefined) return overlay
      if (accounts.has(addr) && accounts.get(addr) === null) return new Uint8Array(0)
      return baseReads.code.get(addr) ?? 'unknown'
    },

    async getAccount(address) {
      const addr = key(address)
      if (accounts.has(addr)) return scopeAccount(addr, accounts.get(addr) ?? undefined)
      return scopeAccount(addr, await baseAccount(addr))
    },
    async putAccount(address, account) {
      await setAccount(key(address), account ? copyAccount(account) : null)
    },
    async deleteAccount(address) {
      const addr = key(address)
      await setAccount(addr, null)
      setCode(addr, new Uint8Array(0))
      setStorageOverlay(addr, { cleared: true, slots: new Map() })
    },
    async modifyAccountFields(address, fields: AccountFields) {
      const account = (await manager.getAccount(address)) ?? new Account()
      if (fields.nonce !== undefined) account.nonce = fields.nonce
      if (fields.balance !== undefined) account.balance = fields.balance
      if (fields.storageRoot !== undefined) account.storageRoot = fields.storageRoot
      if (fields.codeHash !== undefined) account.codeHash = fields.codeHash
      if (fields.codeSize !== undefined) account.codeSize = fields.codeSize
      await manager.putAccount(address, account)
    },
    async putCode(address, value) {
      const addr = key(address)
      setCode(addr, value)
      const account = (await manager.getAccount(address)) ?? new Account()
      account.codeHash = keccak256(value)
      account.codeSize = value.length
      await setAccount(addr, account)
    },
    async getCode(address) {
      const addr = key(address)
      // Reading code is reading the account (prestate lists it).
      if (!scopeReads.accounts.has(addr)) await manager.getAccount(address)
      const scoped = (value: Uint8Array) => {
        if (!scopeReads.code.has(addr)) scopeReads.code.set(addr, value)
        return value
      }
      const overlay = code.get(addr)
      if (overlay !== undefined) return scoped(overlay)
      if (accounts.has(addr) && accounts.get(addr) === null) return scoped(new Uint8Array(0))
      checkAbort()
      await baseAccount(addr)
      const value = await source.getCode(block, addr)
      if (!baseReads.code.has(addr)) baseReads.code.set(addr, value)
      return scoped(value)
    },
    async getCodeSize(address) {
      return (await manager.getCode(address)).length
    },
    storageAtHand(addr, slot) {
      const overlay = storage.get(addr)
      const hit = overlay?.slots.get(slot)
      if (hit !== undefined) return scopeSlot(addr, slot, hit)
      if (overlay?.cleared) {
        // A fresh (created or destroyed) storage: the slot is read as zero, and that is what it was.
        recordSlot(addr, slot, new Uint8Array(0))
        return scopeSlot(addr, slot, new Uint8Array(0))
      }
      if (signal?.aborted) return undefined
      const known = baseReads.storage.get(addr)?.get(slot)
      if (known !== undefined) return scopeSlot(addr, slot, known)
      // Not read here yet: the source's answer if it has it in memory (its verified cache), read as
      // getStorage reads it — only once the account's base read is recorded, as getStorage records it first.
      if (!baseReads.accounts.has(addr)) return undefined
      const cached = source.storageAtHand?.(block, addr, slot)
      if (cached === undefined) return undefined
      recordSlot(addr, slot, cached)
      return scopeSlot(addr, slot, cached)
    },
    async getStorage(address, slotBytes) {
      const addr = key(address)
      const slot = bytesToHex(setLengthLeft(slotBytes, 32)) as Hex
      const atHand = manager.storageAtHand(addr, slot)
      if (atHand !== undefined) return atHand
      checkAbort()
      await baseAccount(addr)
      const value = await source.getStorage(block, addr, slot)
      recordSlot(addr, slot, value)
      return scopeSlot(addr, slot, value)
    },
    async putStorage(address, slotBytes, value) {
      const addr = key(address)
      const slot = bytesToHex(setLengthLeft(slotBytes, 32)) as Hex
      const prev = storage.get(addr)
      const next: StorageOverlay = { cleared: prev?.cleared ?? false, slots: new Map(prev?.slots) }
      next.slots.set(slot, unpadBytes(value))
      setStorageOverlay(addr, next)
    },
    async clearStorage(address) {
      setStorageOverlay(key(address), { cleared: true, slots: new Map() })
    },
    async checkpoint() {
      journal.push([])
    },
    async commit() {
      const top = journal.pop()
      if (top && journal.length > 0) journal[journal.length - 1]!.push(...top)
    },
    async revert() {
      const top = journal.pop()
      if (top) for (let i = top.length - 1; i >= 0; i--) top[i]!()
    },
    async getStateRoot() {
      // The overlay has no trie; only pre-Byzantium receipts ask for it, and replays compare gas, not roots.
      return new Uint8Array(32)
    },
    async setStateRoot() {
      throw new Error('the overlay state manager is pinned to one block')
    },
    async hasStateRoot() {
      return false
    },
    originalStorageCache: {
      async get(address: Address, slotBytes: Uint8Array) {
        const k = `${key(address)}:${bytesToHex(setLengthLeft(slotBytes, 32))}`
        let value = original.get(k)
        if (value === undefined) {
          value = await manager.getStorage(address, slotBytes)
          original.set(k, value)
        }
        return value
      },
      clear() {
        original = new Map()
      },
    },
    clearCaches() {},
    shallowCopy() {
      return createOverlayStateManager({ source, block, signal })
    },
    fork(forkSignal) {
      if (journal.length > 0) throw new Error('an overlay is forked between executions, not inside one')
      return createOverlayStateManager({
        source,
        block,
        signal: forkSignal,
        seed: { accounts, storage, code, baseReads },
      })
    },
  }
  return manager
}
