import { KECCAK256_NULL, createAddressFromString, equalsBytes, hexToBytes } from '@ethereumjs/util'
import type { OverlayStateManager } from '../../state/createOverlayStateManager.js'
import type { Hex } from '../../types/hex.js'

export type AccountSnapshot = {
  balance: bigint
  nonce: bigint
  codeHash: Uint8Array
  code: Uint8Array
  /** Slot → value without leading zeros (empty = zero). */
  storage: Map<Hex, Uint8Array>
  /** The account object exists (geth's Exist: it may still be empty). */
  exists: boolean
}

/**
 * What an execution read and left, from the state manager's point of view (not from opcodes):
 * every account and slot as first read from the base state, and the same accounts and slots after
 * the transaction. `post` is undefined for accounts the transaction deleted.
 */
export type StateAccess = {
  /** Accounts that did not exist are empty snapshots (their slots, as read, included). */
  pre: Map<Hex, AccountSnapshot>
  post: Map<Hex, AccountSnapshot | undefined>
}

const EMPTY = (): AccountSnapshot => ({
  balance: 0n,
  nonce: 0n,
  codeHash: KECCAK256_NULL,
  code: new Uint8Array(0),
  storage: new Map(),
  exists: false,
})

/**
 * Reads back the post-state of everything the execution read in the manager's current read scope
 * (one transaction): pre is each account and slot as first seen in the scope, post the same now.
 */
export async function collectStateAccess(state: OverlayStateManager): Promise<StateAccess> {
  const pre = new Map<Hex, AccountSnapshot>()
  const post = new Map<Hex, AccountSnapshot | undefined>()
  const reads = state.scopeReads
  for (const [address, account] of [...reads.accounts]) {
    const slots = reads.storage.get(address) ?? new Map<Hex, Uint8Array>()
    const addr = createAddressFromString(address)
    let code: Uint8Array = new Uint8Array(0)
    if (account && !equalsBytes(account.codeHash, KECCAK256_NULL)) {
      // Code as first read in the scope; otherwise it did not change (only creation sets code).
      code = reads.code.get(address) ?? (await state.getCode(addr))
    }
    pre.set(
      address,
      account
        ? {
            balance: account.balance,
            nonce: account.nonce,
            codeHash: account.codeHash,
            code,
            storage: new Map(slots),
            exists: true,
          }
        : { ...EMPTY(), storage: new Map(slots) },
    )
    const now = await state.getAccount(addr)
    if (account && !now && state.isDeleted(address)) {
      post.set(address, undefined)
      continue
    }
    const snapshot: AccountSnapshot = now
      ? {
          balance: now.balance,
          nonce: now.nonce,
          codeHash: now.codeHash,
          code: await state.getCode(addr),
          storage: new Map(),
          exists: true,
        }
      : EMPTY()
    for (const slot of slots.keys()) snapshot.storage.set(slot, await state.getStorage(addr, hexToBytes(slot)))
    post.set(address, snapshot)
  }
  return { pre, post }
}
