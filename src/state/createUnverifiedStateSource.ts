import { Account, KECCAK256_NULL, KECCAK256_RLP, bytesToHex, hexToBytes, unpadBytes } from '@ethereumjs/util'
import { keccak256 } from '../utils/keccak256.js'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import type { Upstream } from '../upstream/types.js'
import { rejoinAfterTimeout } from './rejoinAfterTimeout.js'
import { createSingleFlight } from '../utils/createSingleFlight.js'
import type { LruCache } from '../utils/createLruCache.js'
import { groupAccessList } from './groupAccessList.js'
import { pinBlock } from './pinBlock.js'
import { ACCOUNT_BYTES, SLOT_BYTES, codeBytes } from './stateEntryBytes.js'
import type { AccessListEntry, StateSource } from './types.js'
import { cacheKeys } from '../utils/cacheKeys.js'
import type { Hex } from '../types/hex.js'

function hexBytes(raw: unknown, what: string): Uint8Array {
  if (typeof raw !== 'string' || !/^0x[0-9a-fA-F]*$/.test(raw)) throw new Error(`${what} answer is malformed`)
  const even = raw.length % 2 === 0 ? raw : `0x0${raw.slice(2)}`
  return hexToBytes(even as Hex)
}

/**
 * `--unverified`: state from eth_getBalance, eth_getTransactionCount, eth_getCode and
 * eth_getStorageAt at the pinned block hash, for upstreams without eth_getProof. Nothing is proven
 * (headers still are). An existing account with no balance, nonce or code cannot be told from an
 * absent one, and storage roots are unknown, so slots are cached per (block, address).
 */
export function createUnverifiedStateSource({ upstream, cache }: { upstream: Upstream; cache: LruCache }): StateSource {
  const once = createSingleFlight({ rejoin: rejoinAfterTimeout })

  async function getAccount(block: VerifiedHeader, address: Hex): Promise<Account | undefined> {
    const key = cacheKeys.unverifiedAccount(block.hash, address)
    const hit = cache.get<Account | null>(key)
    if (hit !== undefined) return hit ?? undefined
    return once(key, async () => {
      const [balance, nonce, codeHex] = await Promise.all([
        upstream.request('eth_getBalance', [address, pinBlock(block)]),
        upstream.request('eth_getTransactionCount', [address, pinBlock(block)]),
        upstream.request('eth_getCode', [address, pinBlock(block)]),
      ])
      const code = hexBytes(codeHex, 'eth_getCode')
      const codeHash = code.length === 0 ? KECCAK256_NULL : keccak256(code)
      if (code.length > 0) cache.set(cacheKeys.code(bytesToHex(codeHash)), code, codeBytes(code))
      const account = new Account(BigInt(nonce as string), BigInt(balance as string), KECCAK256_RLP, codeHash)
      const absent = account.nonce === 0n && account.balance === 0n && code.length === 0
      cache.set(key, absent ? null : account, ACCOUNT_BYTES)
      return absent ? undefined : account
    })
  }

  async function getStorage(block: VerifiedHeader, address: Hex, slot: Hex) {
    const key = cacheKeys.unverifiedSlot(block.hash, address, slot)
    const hit = cache.get<Uint8Array>(key)
    if (hit !== undefined) return hit
    return once(key, async () => {
      const value = unpadBytes(
        hexBytes(await upstream.request('eth_getStorageAt', [address, slot, pinBlock(block)]), 'eth_getStorageAt'),
      )
      cache.set(key, value, SLOT_BYTES)
      return value
    })
  }

  /** getStorage from memory alone (a miss is not counted: getStorage counts it). */
  function storageAtHand(block: VerifiedHeader, address: Hex, slot: Hex): Uint8Array | undefined {
    const key = cacheKeys.unverifiedSlot(block.hash, address, slot)
    return cache.has(key) ? cache.get<Uint8Array>(key) : undefined
  }

  async function getCode(block: VerifiedHeader, address: Hex) {
    const account = await getAccount(block, address)
    if (account === undefined) return new Uint8Array(0)
    return cache.get<Uint8Array>(cacheKeys.code(bytesToHex(account.codeHash))) ?? new Uint8Array(0)
  }

  async function prefetch(block: VerifiedHeader, entries: readonly AccessListEntry[]) {
    await Promise.all(
      [...groupAccessList(entries)].flatMap(([address, slots]) => [
        getAccount(block, address),
        ...[...slots].map((slot) => getStorage(block, address, slot)),
      ]),
    )
  }

  return {
    verified: false,
    getAccount,
    getStorage,
    storageAtHand,
    getCode,
    prefetch,
    offerProof: async () => false,
    offerCode: async () => false,
  }
}
