import { type Account, KECCAK256_NULL, equalsBytes } from '@ethereumjs/util'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import type { Upstream } from '../upstream/types.js'
import { cacheKeys } from '../utils/cacheKeys.js'
import { rejoinAfterTimeout } from './rejoinAfterTimeout.js'
import { createSingleFlight } from '../utils/createSingleFlight.js'
import type { ProvenCache } from './createProvenCache.js'
import { groupAccessList } from './groupAccessList.js'
import { pinBlock } from './pinBlock.js'
import type { AccessListEntry } from './types.js'
import type { Hex } from '../types/hex.js'

export type CreatePrefetchParameters = {
  proven: ProvenCache
  upstream: Upstream
  /** Asks for a proof of the account and these slots, verifies it and caches what it proves. */
  fetchProof(block: VerifiedHeader, address: Hex, slots: readonly Hex[]): Promise<{ account: Account | undefined }>
  /** The account's code through the cache's tiers (asked for alone when missing). */
  getCode(block: VerifiedHeader, address: Hex): Promise<Uint8Array>
  /** Verifies an eth_getCode answer against the proven codeHash and caches it. */
  storeCode(block: VerifiedHeader, address: Hex, codeHash: Uint8Array, raw: unknown): Uint8Array
}

/**
 * The verified source's prefetch: everything an access list names that no cache tier holds is
 * asked for in one round trip — per account, one proof of the account and its missing slots, and
 * its code beside it when the account is not known yet (checked once the proof shows its codeHash).
 * Concurrent prefetches of the same proof share one request.
 */
export function createPrefetch({ proven, upstream, fetchProof, getCode, storeCode }: CreatePrefetchParameters) {
  const once = createSingleFlight({ rejoin: rejoinAfterTimeout })
  return async function prefetch(block: VerifiedHeader, entries: readonly AccessListEntry[]): Promise<void> {
    const byAddress = groupAccessList(entries)
    if (proven.restore) {
      // Persistent tier first: accounts, then the slots and code of the accounts it had.
      await proven.restore([...byAddress.keys()].map((a) => proven.accountKey(block, a)))
      const more: string[] = []
      for (const [address, slots] of byAddress) {
        const account = proven.account(block, address)
        if (!account) continue
        for (const slot of slots) more.push(proven.slotKey(account.storageRoot, slot))
        if (!equalsBytes(account.codeHash, KECCAK256_NULL)) more.push(proven.codeKey(account.codeHash))
      }
      await proven.restore(more)
    }
    const work: Promise<unknown>[] = []
    for (const [address, slots] of byAddress) {
      // undefined: not cached; null: proven absent (it has no slots or code to fetch).
      const account = proven.account(block, address)
      const missing = [...slots].filter(
        (slot) => account === undefined || (account !== null && !proven.hasSlot(account.storageRoot, slot)),
      )
      if (account !== undefined && missing.length === 0) {
        // Account known: only code may be missing.
        if (account !== null && !equalsBytes(account.codeHash, KECCAK256_NULL) && !proven.hasCode(account.codeHash)) {
          work.push(getCode(block, address))
        }
        continue
      }
      const proof = once(cacheKeys.proof(block.hash, address, missing), () => fetchProof(block, address, missing))
      // Code is asked for in the same round trip as the proof, and checked once the proof is in.
      const code = account === undefined ? upstream.request('eth_getCode', [address, pinBlock(block)]) : undefined
      // Awaited only if the proof verifies and shows code: its failure must not go unhandled otherwise.
      code?.catch(() => {})
      work.push(
        proof.then(async ({ account: fetched }) => {
          if (fetched === undefined || equalsBytes(fetched.codeHash, KECCAK256_NULL)) return
          if (proven.hasCode(fetched.codeHash)) return
          if (code) storeCode(block, address, fetched.codeHash, await code)
          else await getCode(block, address)
        }),
      )
    }
    await Promise.all(work)
  }
}
