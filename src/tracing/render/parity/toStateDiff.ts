import { bytesToBigInt, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { bytes, quantity } from '../../../utils/hex.js'
import type { Hex } from '../../../types/hex.js'
import type { AccountSnapshot, StateAccess } from '../../state/collectStateAccess.js'

type Delta = '=' | { '*': { from: string; to: string } } | { '+': string } | { '-': string }
export type StateDiffAccount = { balance: Delta; code: Delta; nonce: Delta; storage: Record<string, Delta> }

const word = (v: Uint8Array) => bytesToHex(setLengthLeft(v, 32))
const sameValue = (a: Uint8Array, b: Uint8Array) => bytesToBigInt(a) === bytesToBigInt(b)

function change(from: string, to: string): Delta {
  return from === to ? '=' : { '*': { from, to } }
}

/**
 * Parity's stateDiff from what the state manager saw during one transaction (each account and slot
 * as first read, and as left): per changed account, balance / code / nonce as `=` (unchanged), `*`
 * (from → to), `+` (born) or `-` (died), and the changed slots (raw 32-byte keys and values).
 * Accounts left as they were (touched only) are not listed; keys are sorted as Go's maps are.
 */
export function toStateDiff(access: StateAccess): Record<string, StateDiffAccount> {
  const out: Record<string, StateDiffAccount> = {}
  for (const address of [...access.pre.keys()].sort()) {
    const pre = access.pre.get(address)!
    const post: AccountSnapshot | undefined = access.post.get(address)
    const before = pre.exists
    const after = post?.exists ?? false
    if (!before && !after) continue
    const storage: Record<string, Delta> = {}
    for (const slot of [...pre.storage.keys()].sort()) {
      const from = pre.storage.get(slot)!
      const to = post?.storage.get(slot as Hex) ?? new Uint8Array(0)
      if (sameValue(from, to)) continue
      storage[word(hexToBytes(slot))] = !before ? { '+': word(to) } : { '*': { from: word(from), to: word(to) } }
    }
    if (before && after) {
      const balance = change(quantity(pre.balance), quantity(post!.balance))
      const code = change(bytes(pre.code), bytes(post!.code))
      const nonce = change(quantity(pre.nonce), quantity(post!.nonce))
      if (balance === '=' && code === '=' && nonce === '=' && Object.keys(storage).length === 0) continue
      out[address] = { balance, code, nonce, storage }
    } else if (before) {
      out[address] = {
        balance: { '-': quantity(pre.balance) },
        code: { '-': bytes(pre.code) },
        nonce: { '-': quantity(pre.nonce) },
        storage,
      }
    } else {
      out[address] = {
        balance: { '+': quantity(post!.balance) },
        code: { '+': bytes(post!.code) },
        nonce: { '+': quantity(post!.nonce) },
        storage,
      }
    }
  }
  return out
}
