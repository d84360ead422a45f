import { type Account, KECCAK256_NULL, KECCAK256_RLP, equalsBytes } from '@ethereumjs/util'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import type { Upstream } from '../upstream/types.js'
import type { LruCache } from '../utils/createLruCache.js'
import { bigIntToHex32 } from './bigIntToHex32.js'
import { createPrefetch } from './createPrefetch.js'
import { createProvenCache } from './createProvenCache.js'
import { createReadThrough } from './createReadThrough.js'
import { ingestProof } from './ingestProof.js'
import { parseProofAnswer } from './parseProofAnswer.js'
import { pinBlock } from './pinBlock.js'
import { requestProof } from './requestProof.js'
import type { StateSource } from './types.js'
import { verifyCode } from './verifyCode.js'
import type { Hex } from '../types/hex.js'
import type { VerificationCounts } from '../types/verificationCounts.js'

// Its one home is bigIntToHex32.ts; still exported here, where it was first.
export { bigIntToHex32 } from './bigIntToHex32.js'

/**
 * State read through eth_getProof and eth_getCode at a pinned block hash (EIP-1898), every account
 * proven against the header's stateRoot, every slot against the account's storageRoot, every code
 * against its codeHash (verifyAccountProof, verifyStorageProof, verifyCode). Cached in one LRU
 * (createProvenCache): accounts by (block hash, address), slots by (storage root, slot) — so they
 * carry over between blocks while a contract's storage is unchanged — and code by code hash, each
 * read through memory, the persistent tier, then the upstream (createReadThrough). Concurrent
 * reads of one item share one request; prefetch asks for an access list in one round trip
 * (createPrefetch).
 */
export function createVerifiedStateSource({
  upstream,
  cache,
  counts,
}: {
  upstream: Upstream
  cache: LruCache
  /** Counted up as items are proven (the explorer shows them per answer). */
  counts?: VerificationCounts
}): StateSource {
  const proven = createProvenCache(cache)
  const read = createReadThrough(cache)

  async function fetchProof(block: VerifiedHeader, address: Hex, slots: readonly Hex[]) {
    return ingestProof(proven, block, await requestProof(upstream, block, address, slots), { address, slots }, counts)
  }

  function storeCode(block: VerifiedHeader, address: Hex, codeHash: Uint8Array, raw: unknown): Uint8Array {
    const code = verifyCode(codeHash, raw, { block: { number: block.number, hash: block.hash }, address })
    proven.setCode(codeHash, code)
    if (counts) counts.codes++
    return code
  }

  async function getAccount(block: VerifiedHeader, address: Hex): Promise<Account | undefined> {
    // Cached as null when proven absent (undefined is a miss).
    const load = async () => (await fetchProof(block, address, [])).account ?? null
    return (await read<Account | null>(proven.accountKey(block, address), load)) ?? undefined
  }

  async function getStorage(block: VerifiedHeader, address: Hex, slot: Hex): Promise<Uint8Array> {
    const account = await getAccount(block, address)
    if (account === undefined || equalsBytes(account.storageRoot, KECCAK256_RLP)) return new Uint8Array(0)
    const load = async () => (await fetchProof(block, address, [slot])).values[0]!
    return read(proven.slotKey(account.storageRoot, slot), load)
  }

  /** getStorage from memory alone: the account and the slot both cached (a miss is not counted: getStorage counts it). */
  function storageAtHand(block: VerifiedHeader, address: Hex, slot: Hex): Uint8Array | undefined {
    const accountKey = proven.accountKey(block, address)
    if (!cache.has(accountKey)) return undefined
    const account = cache.get<Account | null>(accountKey)
    if (account === undefined) return undefined
    if (account === null || equalsBytes(account.storageRoot, KECCAK256_RLP)) return new Uint8Array(0)
    const slotKey = proven.slotKey(account.storageRoot, slot)
    return cache.has(slotKey) ? cache.get<Uint8Array>(slotKey) : undefined
  }

  async function getCode(block: VerifiedHeader, address: Hex): Promise<Uint8Array> {
    const account = await getAccount(block, address)
    if (account === undefined || equalsBytes(account.codeHash, KECCAK256_NULL)) return new Uint8Array(0)
    return read(proven.codeKey(account.codeHash), async () =>
      storeCode(block, address, account.codeHash, await upstream.request('eth_getCode', [address, pinBlock(block)])),
    )
  }

  const prefetch = createPrefetch({ proven, upstream, fetchProof, getCode, storeCode })

  async function offerProof(block: VerifiedHeader, raw: unknown): Promise<boolean> {
    try {
      const proof = parseProofAnswer(raw)
      const slots = proof.storageProof.map((s) => bigIntToHex32(s.key as Hex))
      await ingestProof(proven, block, raw, { address: proof.address, slots }, counts)
      return true
    } catch {
      return false
    }
  }

  async function offerCode(block: VerifiedHeader, address: Hex, raw: unknown): Promise<boolean> {
    const account = proven.account(block, address.toLowerCase())
    if (!account) return false
    if (equalsBytes(account.codeHash, KECCAK256_NULL)) return true
    try {
      storeCode(block, address, account.codeHash, raw)
      return true
    } catch {
      return false
    }
  }

  return { verified: true, getAccount, getStorage, storageAtHand, getCode, prefetch, offerProof, offerCode }
}
