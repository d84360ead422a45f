import { Account, type Address, KECCAK256_NULL, equalsBytes } from '@ethereumjs/util'
import type { OverlayStateManager } from '../state/createOverlayStateManager.js'

/**
 * geth and the reference daemon run calls without the transaction checks (SkipTransactionChecks):
 * a contract may be the sender — a smart account simulates from its own address. ethereumjs refuses
 * a sender with code (EIP-3607), telling it from the account it reads once before running. That one
 * read is answered with the account as an externally owned one's (no code), and the account it then
 * writes back (its nonce and balance moved) gets its code hash back; every other read and write
 * sees the real state. Returns the undo (for when the run fails before writing).
 */
export async function allowSenderWithCode(state: OverlayStateManager, sender: Address): Promise<() => void> {
  const account = await state.getAccount(sender)
  if (!account || equalsBytes(account.codeHash, KECCAK256_NULL)) return () => {}
  const { getAccount, putAccount } = state
  const restore = () => {
    state.getAccount = getAccount
    state.putAccount = putAccount
  }
  state.getAccount = async (address) => {
    const real = await getAccount.call(state, address)
    if (!address.equals(sender) || !real) return real
    state.getAccount = getAccount
    return new Account(real.nonce, real.balance, real.storageRoot, KECCAK256_NULL, 0, real.version)
  }
  state.putAccount = async (address, written) => {
    if (address.equals(sender) && written) {
      state.putAccount = putAccount
      written.codeHash = account.codeHash
      written.codeSize = account.codeSize
    }
    return putAccount.call(state, address, written)
  }
  return restore
}
