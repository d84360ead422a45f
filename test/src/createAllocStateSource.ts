import { Account, KECCAK256_NULL, KECCAK256_RLP, hexToBytes, unpadBytes } from '@ethereumjs/util'
import { keccak256 } from '../../src/utils/keccak256.js'
import type { StateSource } from '../../src/state/types.js'

export type AllocAccount = {
  balance?: string | number
  nonce?: string | number
  code?: string
  storage?: Record<string, string>
}

const toBigInt = (v: string | number | undefined) =>
  v === undefined ? 0n : typeof v === 'number' ? BigInt(v) : v.startsWith('0x') ? BigInt(v) : BigInt(v)

const hex = (s: string) => hexToBytes((s.startsWith('0x') ? s : `0x${s}`) as `0x${string}`)
const slotKey = (s: string) => `0x${BigInt(s).toString(16).padStart(64, '0')}`

/**
 * State taken from a genesis-style `alloc` (geth's tracetest fixtures, genesis files): local, not
 * verified, the same interface as the upstream-backed sources so that the same overlay, recorder
 * and renderers run on it.
 */
export function createAllocStateSource(alloc: Record<string, AllocAccount>): StateSource {
  const accounts = new Map<string, { account: Account; code: Uint8Array; storage: Map<string, Uint8Array> }>()
  for (const [address, a] of Object.entries(alloc)) {
    const code = a.code ? hex(a.code) : new Uint8Array(0)
    const storage = new Map<string, Uint8Array>()
    for (const [slot, value] of Object.entries(a.storage ?? {})) storage.set(slotKey(slot), unpadBytes(hex(value)))
    const account = new Account(
      toBigInt(a.nonce),
      toBigInt(a.balance),
      KECCAK256_RLP,
      code.length > 0 ? keccak256(code) : KECCAK256_NULL,
    )
    accounts.set((address.startsWith('0x') ? address : `0x${address}`).toLowerCase(), { account, code, storage })
  }
  return {
    verified: false,
    getAccount: async (_block, address) => accounts.get(address)?.account,
    getStorage: async (_block, address, slot) => accounts.get(address)?.storage.get(slot) ?? new Uint8Array(0),
    getCode: async (_block, address) => accounts.get(address)?.code ?? new Uint8Array(0),
    prefetch: async () => {},
    offerProof: async () => false,
    offerCode: async () => false,
  }
}
