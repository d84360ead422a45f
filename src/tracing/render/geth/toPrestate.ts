import { KECCAK256_NULL, bytesToHex, equalsBytes, setLengthLeft } from '@ethereumjs/util'
import { quantity } from '../../../utils/hex.js'
import type { Hex } from '../../../types/hex.js'
import type { AccountSnapshot, StateAccess } from '../../state/collectStateAccess.js'

export type PrestateTracerConfig = {
  diffMode: boolean
  disableCode: boolean
  disableStorage: boolean
  includeEmpty: boolean
}

type Account = { balance?: string; code?: string; codeHash?: string; nonce?: number; storage?: Record<string, string> }

const word = (value: Uint8Array) => bytesToHex(setLengthLeft(value, 32))
const isZero = (value: Uint8Array) => value.every((b) => b === 0)
const sorted = <value>(entries: [string, value][]) => entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))

function hasCode(a: AccountSnapshot) {
  return !equalsBytes(a.codeHash, KECCAK256_NULL) && a.code.length > 0
}

/** geth's "empty" at lookup time: no nonce, no code, no balance. */
function isEmpty(a: AccountSnapshot) {
  return a.nonce === 0n && !hasCode(a) && a.balance === 0n
}

function preAccount(a: AccountSnapshot, config: PrestateTracerConfig, slots: [Hex, Uint8Array][]): Account {
  const out: Account = { balance: quantity(a.balance) }
  if (hasCode(a)) {
    if (!config.disableCode) out.code = bytesToHex(a.code)
    out.codeHash = bytesToHex(a.codeHash)
  }
  if (a.nonce > 0n) out.nonce = Number(a.nonce)
  if (!config.disableStorage && slots.length > 0) {
    out.storage = Object.fromEntries(sorted(slots.map(([k, v]) => [k, word(v)])))
  }
  return out
}

/**
 * prestateTracer's result from what the state manager saw: in prestate mode every account the
 * transaction read as it was before, in diffMode `{ post, pre }` limited to what changed — geth's
 * prestate.go rules (empty accounts dropped unless includeEmpty; deleted accounts only in pre;
 * pre keeps only non-zero slots that changed; post only non-zero new slot values).
 */
export function toPrestate(access: StateAccess, config: PrestateTracerConfig): Record<string, unknown> {
  const pre: [string, Account][] = []
  const post: [string, Account][] = []
  for (const [address, before] of access.pre) {
    const slots = [...before.storage] as [Hex, Uint8Array][]
    if (!config.diffMode) {
      if (!config.includeEmpty && isEmpty(before)) continue
      pre.push([address, preAccount(before, config, slots)])
      continue
    }
    const after = access.post.get(address)
    if (after === undefined && access.post.has(address)) {
      // Deleted by the transaction: geth leaves it in pre as it was, with no post entry.
      if (!isEmpty(before)) pre.push([address, preAccount(before, config, slots)])
      continue
    }
    if (after === undefined) continue
    const changed: Account = {}
    let modified = false
    const balanceBefore = before.balance
    if (after.balance !== balanceBefore) {
      modified = true
      changed.balance = quantity(after.balance)
    }
    const codeHashBefore = before.codeHash
    const codeBefore = hasCode(before) ? before.code : new Uint8Array(0)
    if (!config.disableCode && !equalsBytes(after.code, codeBefore)) {
      modified = true
      changed.code = bytesToHex(after.code)
    }
    if (!equalsBytes(after.codeHash, codeHashBefore)) {
      modified = true
      changed.codeHash = bytesToHex(after.codeHash)
    }
    if (after.nonce !== before.nonce) {
      modified = true
      changed.nonce = Number(after.nonce)
    }
    const keptPre: [Hex, Uint8Array][] = []
    if (!config.disableStorage) {
      const newSlots: [string, string][] = []
      for (const [slot, value] of slots) {
        const now = after.storage.get(slot) ?? new Uint8Array(0)
        if (equalsBytes(setLengthLeft(now, 32), setLengthLeft(value, 32))) continue
        modified = true
        if (!isZero(value)) keptPre.push([slot, value])
        if (!isZero(now)) newSlots.push([slot, word(now)])
      }
      if (newSlots.length > 0) changed.storage = Object.fromEntries(sorted(newSlots))
    }
    if (!modified) continue
    // Field order as geth marshals an account: balance, code, codeHash, nonce, storage.
    const ordered: Account = {}
    for (const k of ['balance', 'code', 'codeHash', 'nonce', 'storage'] as const)
      if (changed[k] !== undefined) (ordered as Record<string, unknown>)[k] = changed[k]
    post.push([address, ordered])
    if (!isEmpty(before)) pre.push([address, preAccount(before, config, keptPre)])
  }
  if (!config.diffMode) return Object.fromEntries(sorted(pre))
  return { post: Object.fromEntries(sorted(post)), pre: Object.fromEntries(sorted(pre)) }
}
