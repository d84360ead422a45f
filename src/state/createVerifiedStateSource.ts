import { RLP } from '@ethereumjs/rlp'
import {
  Account,
  KECCAK256_NULL,
  KECCAK256_RLP,
  bytesToBigInt,
  bytesToHex,
  equalsBytes,
  hexToBytes,
} from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import { BaseError } from '../errors/base.js'
import { CodeHashMismatchError, ProofRootMismatchError, ProofVerificationError } from '../errors/state.js'
import { UpstreamRpcError } from '../errors/upstream.js'
import type { Upstream } from '../upstream/types.js'
import { createSingleFlight } from '../utils/createSingleFlight.js'
import type { LruCache } from '../utils/createLruCache.js'
import type { AccessListEntry, StateSource } from './types.js'
import { decodeStorageLeaf, verifyProof } from './verifyProof.js'
import { cacheKeys } from '../utils/cacheKeys.js'

type ProofJson = {
  address: string
  balance: string
  nonce: string
  codeHash: string
  storageHash: string
  accountProof: string[]
  storageProof: { key: string; value: string; proof: string[] }[]
}

const ACCOUNT_BYTES = 256
const SLOT_BYTES = 192

function pin(block: VerifiedHeader) {
  return { blockHash: block.hash }
}

function asProof(raw: unknown): ProofJson {
  const p = raw as ProofJson
  if (
    typeof p !== 'object' || p === null || !Array.isArray(p.accountProof) || !Array.isArray(p.storageProof) ||
    typeof p.address !== 'string'
  ) {
    throw new Error('eth_getProof answer is malformed')
  }
  return p
}

/** The roots of a proof that did not verify: the one it had to lead from and, when it leads from another, that one. */
function roots(expected: Uint8Array, err: unknown) {
  return { expectedRoot: bytesToHex(expected), gotRoot: err instanceof ProofRootMismatchError ? err.gotRoot : undefined }
}

function sameQuantity(hex: unknown, value: bigint): boolean {
  try {
    return typeof hex === 'string' && BigInt(hex) === value
  } catch {
    return false
  }
}

function sameBytes32(hex: unknown, value: Uint8Array): boolean {
  return typeof hex === 'string' && hex.toLowerCase() === bytesToHex(value)
}

/**
 * State read through eth_getProof and eth_getCode at a pinned block hash (EIP-1898), every account
 * proven against the header's stateRoot, every slot against the account's storageRoot, every code
 * against its codeHash. Cached in one LRU: accounts by (block hash, address), slots by (storage
 * root, slot) — so they carry over between blocks while a contract's storage is unchanged — and
 * code by code hash. Concurrent reads of one item share one request.
 */
export function createVerifiedStateSource({ upstream, cache }: { upstream: Upstream; cache: LruCache }): StateSource {
  const once = createSingleFlight()

  const accountKey = (block: VerifiedHeader, address: string) => cacheKeys.account(block.hash, address)
  const slotKey = (root: Uint8Array, slot: string) => cacheKeys.slot(bytesToHex(root), slot)

  /** Verifies a proof answer against the block, caches what it proves, returns the account. */
  async function ingest(block: VerifiedHeader, raw: unknown, asked: { address: string; slots: readonly string[] }) {
    const proof = asProof(raw)
    const address = asked.address.toLowerCase() as `0x${string}`
    const where = { block: { number: block.number, hash: block.hash }, address }
    if (proof.address.toLowerCase() !== address) {
      throw new ProofVerificationError(`eth_getProof answered for ${proof.address}`, where)
    }
    let leaf: Uint8Array | null
    try {
      leaf = await verifyProof(block.header.stateRoot, hexToBytes(address), proof.accountProof)
    } catch (err) {
      throw new ProofVerificationError('account proof does not verify against the stateRoot', { ...where, ...roots(block.header.stateRoot, err) }, { cause: err })
    }
    let account: Account | undefined
    if (leaf === null) {
      account = undefined
      const claimsEmpty =
        sameQuantity(proof.balance, 0n) && sameQuantity(proof.nonce, 0n) &&
        (sameBytes32(proof.storageHash, KECCAK256_RLP) || /^0x0*$/.test(proof.storageHash)) &&
        (sameBytes32(proof.codeHash, KECCAK256_NULL) || /^0x0*$/.test(proof.codeHash))
      if (!claimsEmpty) throw new ProofVerificationError('account is proven absent, but the upstream claims fields for it', where)
    } else {
      const fields = RLP.decode(leaf) as Uint8Array[]
      if (!Array.isArray(fields) || fields.length !== 4) throw new ProofVerificationError('account leaf is malformed', where)
      account = new Account(bytesToBigInt(fields[0]!), bytesToBigInt(fields[1]!), fields[2]!, fields[3]!)
      if (
        !sameQuantity(proof.nonce, account.nonce) || !sameQuantity(proof.balance, account.balance) ||
        !sameBytes32(proof.storageHash, account.storageRoot) || !sameBytes32(proof.codeHash, account.codeHash)
      ) {
        throw new ProofVerificationError('account fields differ from what the proof proves', where)
      }
    }
    cache.set(accountKey(block, address), account ?? null, ACCOUNT_BYTES)

    if (proof.storageProof.length !== asked.slots.length) {
      throw new ProofVerificationError(`asked for ${asked.slots.length} slots, got ${proof.storageProof.length} storage proofs`, where)
    }
    const storageRoot = account?.storageRoot ?? KECCAK256_RLP
    const values: Uint8Array[] = []
    for (let i = 0; i < asked.slots.length; i++) {
      const slot = asked.slots[i]!
      const entry = proof.storageProof[i]!
      const slotWhere = { ...where, slot }
      let value: Uint8Array
      try {
        if (!Array.isArray(entry?.proof)) throw new Error('storage proof missing')
        value = decodeStorageLeaf(await verifyProof(storageRoot, hexToBytes(slot as `0x${string}`), entry.proof))
      } catch (err) {
        throw new ProofVerificationError('storage proof does not verify against the storageRoot', { ...slotWhere, ...roots(storageRoot, err) }, { cause: err })
      }
      if (!sameQuantity(entry.value, bytesToBigInt(value))) {
        throw new ProofVerificationError('storage value differs from what the proof proves', slotWhere)
      }
      cache.set(slotKey(storageRoot, slot), value, SLOT_BYTES)
      values.push(value)
    }
    return { account, values }
  }

  async function fetchProof(block: VerifiedHeader, address: `0x${string}`, slots: readonly `0x${string}`[]) {
    const raw = await upstream.request('eth_getProof', [address, slots, pin(block)]).catch((err: unknown) => {
      if (err instanceof UpstreamRpcError && (err.code === -32601 || /not (exist|available|supported)/i.test(err.shortMessage))) {
        throw new BaseError('the upstream does not serve eth_getProof, so state cannot be verified: start edgetrace with --unverified to read state without proofs', { cause: err })
      }
      throw err
    })
    return ingest(block, raw, { address, slots })
  }

  function cachedAccount(block: VerifiedHeader, address: string): Account | undefined | null {
    const hit = cache.get<Account | null>(accountKey(block, address))
    return hit === undefined ? null : hit === null ? undefined : hit
  }

  async function getAccount(block: VerifiedHeader, address: `0x${string}`): Promise<Account | undefined> {
    const hit = cachedAccount(block, address)
    if (hit !== null) return hit
    return once(accountKey(block, address), async () => {
      if (cache.restore) {
        await cache.restore([accountKey(block, address)])
        const restored = cachedAccount(block, address)
        if (restored !== null) return restored
      }
      return (await fetchProof(block, address, [])).account
    })
  }

  /** Brings into memory what the persistent tier holds of these keys (nothing to do without one). */
  async function restored<value>(key: string): Promise<value | undefined> {
    if (!cache.restore) return undefined
    await cache.restore([key])
    return cache.get<value>(key)
  }

  async function getStorage(block: VerifiedHeader, address: `0x${string}`, slot: `0x${string}`): Promise<Uint8Array> {
    const account = await getAccount(block, address)
    if (account === undefined || equalsBytes(account.storageRoot, KECCAK256_RLP)) return new Uint8Array(0)
    const key = slotKey(account.storageRoot, slot)
    const hit = cache.get<Uint8Array>(key)
    if (hit !== undefined) return hit
    return once(key, async () => (await restored<Uint8Array>(key)) ?? (await fetchProof(block, address, [slot])).values[0]!)
  }

  async function verifyCode(block: VerifiedHeader, address: `0x${string}`, codeHash: Uint8Array, raw: unknown) {
    if (typeof raw !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(raw)) throw new Error('eth_getCode answer is malformed')
    const code = hexToBytes(raw as `0x${string}`)
    const actual = keccak_256(code)
    if (!equalsBytes(actual, codeHash)) {
      throw new CodeHashMismatchError(
        { block: { number: block.number, hash: block.hash }, address },
        bytesToHex(codeHash),
        bytesToHex(actual),
      )
    }
    cache.set(cacheKeys.code(bytesToHex(codeHash)), code, code.length + 96)
    return code
  }

  async function getCode(block: VerifiedHeader, address: `0x${string}`): Promise<Uint8Array> {
    const account = await getAccount(block, address)
    if (account === undefined || equalsBytes(account.codeHash, KECCAK256_NULL)) return new Uint8Array(0)
    const key = cacheKeys.code(bytesToHex(account.codeHash))
    const hit = cache.get<Uint8Array>(key)
    if (hit !== undefined) return hit
    return once(key, async () =>
      (await restored<Uint8Array>(key)) ??
      verifyCode(block, address, account.codeHash, await upstream.request('eth_getCode', [address, pin(block)])),
    )
  }

  async function prefetch(block: VerifiedHeader, entries: readonly AccessListEntry[]): Promise<void> {
    const byAddress = new Map<`0x${string}`, Set<`0x${string}`>>()
    for (const { address, storageKeys } of entries) {
      const a = address.toLowerCase() as `0x${string}`
      const set = byAddress.get(a) ?? new Set()
      for (const k of storageKeys) set.add(bigIntToHex32(k))
      byAddress.set(a, set)
    }
    if (cache.restore) {
      // Persistent tier first: accounts, then the slots and code of the accounts it had.
      await cache.restore([...byAddress.keys()].map((a) => accountKey(block, a)))
      const more: string[] = []
      for (const [address, slots] of byAddress) {
        const account = cachedAccount(block, address)
        if (!account) continue
        for (const slot of slots) more.push(slotKey(account.storageRoot, slot))
        if (!equalsBytes(account.codeHash, KECCAK256_NULL)) more.push(cacheKeys.code(bytesToHex(account.codeHash)))
      }
      await cache.restore(more)
    }
    const work: Promise<unknown>[] = []
    for (const [address, slots] of byAddress) {
      const account = cachedAccount(block, address)
      const missing = [...slots].filter(
        (slot) => account === null || (account !== undefined && !cache.has(slotKey(account.storageRoot, slot))),
      )
      if (account !== null && missing.length === 0) {
        // Account known: only code may be missing.
        if (account !== undefined && !equalsBytes(account.codeHash, KECCAK256_NULL) && !cache.has(cacheKeys.code(bytesToHex(account.codeHash)))) {
          work.push(getCode(block, address))
        }
        continue
      }
      const proof = once(cacheKeys.proof(block.hash, address, missing), () => fetchProof(block, address, missing))
      // Code is asked for in the same round trip as the proof, and checked once the proof is in.
      const code = account === null ? upstream.request('eth_getCode', [address, pin(block)]) : undefined
      // Awaited only if the proof verifies and shows code: its failure must not go unhandled otherwise.
      code?.catch(() => {})
      work.push(
        proof.then(async ({ account: proven }) => {
          if (proven === undefined || equalsBytes(proven.codeHash, KECCAK256_NULL)) return
          if (cache.has(cacheKeys.code(bytesToHex(proven.codeHash)))) return
          if (code) await verifyCode(block, address, proven.codeHash, await code)
          else await getCode(block, address)
        }),
      )
    }
    await Promise.all(work)
  }

  async function offerProof(block: VerifiedHeader, raw: unknown): Promise<boolean> {
    try {
      const proof = asProof(raw)
      const slots = proof.storageProof.map((s) => bigIntToHex32(s.key as `0x${string}`))
      await ingest(block, raw, { address: proof.address, slots })
      return true
    } catch {
      return false
    }
  }

  async function offerCode(block: VerifiedHeader, address: `0x${string}`, raw: unknown): Promise<boolean> {
    const account = cachedAccount(block, address.toLowerCase())
    if (account === null || account === undefined) return false
    if (equalsBytes(account.codeHash, KECCAK256_NULL)) return true
    try {
      await verifyCode(block, address, account.codeHash, raw)
      return true
    } catch {
      return false
    }
  }

  return { verified: true, getAccount, getStorage, getCode, prefetch, offerProof, offerCode }
}

/** A storage key as 32-byte lowercase hex (upstreams and access lists may shorten it). */
export function bigIntToHex32(key: `0x${string}` | string): `0x${string}` {
  return `0x${BigInt(key).toString(16).padStart(64, '0')}` as `0x${string}`
}

