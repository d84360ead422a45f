import type { Account } from '@ethereumjs/util'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import type { Hex } from '../types/hex.js'

export type AccessListEntry = { address: Hex; storageKeys: Hex[] }

/**
 * Where state comes from: reads at one verified block, cached across executions. Every value it
 * returns was proven against the block (or, in unverified mode, taken from the upstream as is).
 */
export type StateSource = {
  readonly verified: boolean
  /** undefined when the account does not exist at that block. */
  getAccount(block: VerifiedHeader, address: Hex): Promise<Account | undefined>
  /** The slot's value without leading zeros (empty when zero). `slot` is 32-byte hex. */
  getStorage(block: VerifiedHeader, address: Hex, slot: Hex): Promise<Uint8Array>
  /**
   * getStorage's answer when it is in memory already (it would need no request, no persistent tier,
   * nothing to wait for), else undefined; counted as getStorage's cache hit would be, a miss not at
   * all (getStorage then counts it). Synchronous: the wasm engine's SLOAD asks it mid-frame.
   */
  storageAtHand?(block: VerifiedHeader, address: Hex, slot: Hex): Uint8Array | undefined
  getCode(block: VerifiedHeader, address: Hex): Promise<Uint8Array>
  /** Fetches (in one round trip) and verifies accounts, slots and code not cached yet. */
  prefetch(block: VerifiedHeader, entries: readonly AccessListEntry[]): Promise<void>
  /**
   * Offers an eth_getProof answer fetched speculatively (at a tag, before the block was pinned).
   * It is cached only if it verifies against `block`; returns whether it did.
   */
  offerProof(block: VerifiedHeader, proof: unknown): Promise<boolean>
  /** Offers an eth_getCode answer; cached only when it matches a verified codeHash. */
  offerCode(block: VerifiedHeader, address: Hex, code: unknown): Promise<boolean>
}
