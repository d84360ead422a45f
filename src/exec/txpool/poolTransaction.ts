import type { TypedTransaction } from '@ethereumjs/tx'
import { type EOACode7702AuthorizationListBytesItem, bytesToHex, eoaCode7702RecoverAuthority } from '@ethereumjs/util'
import type { Hex } from '../../types/hex.js'
import { GAS_PER_BLOB } from '../../utils/gasPerBlob.js'

/** A transaction the pool holds: decoded, re-hashed, its sender recovered, its fees read once. */
export type PoolTransaction = {
  tx: TypedTransaction
  hash: Hex
  sender: Hex
  nonce: bigint
  gas: bigint
  /** maxFeePerGas, or gasPrice for legacy and EIP-2930. */
  feeCap: bigint
  /** maxPriorityFeePerGas, or gasPrice. */
  tip: bigint
  /** maxFeePerBlobGas (0 for other types). */
  blobFeeCap: bigint
  blobGas: bigint
  /** The most it can cost its sender: gas × fee cap + value + blob gas × blob fee cap. */
  maxCost: bigint
  /** Sent through this edgetrace (eth_sendRawTransaction), not learned from the upstream. */
  local: boolean
  /** When it entered the pool (ms), the last tie-break. */
  addedAt: number
  /** EIP-7702: the accounts whose authorizations it carries (those whose signature recovers). */
  authorities: Hex[]
}

/** The signers of a set-code transaction's authorizations; one whose signature does not recover is left out (as geth's SetCodeAuthorities). */
function authoritiesOf(tx: TypedTransaction): Hex[] {
  const list = (tx as TypedTransaction & { authorizationList?: EOACode7702AuthorizationListBytesItem[] })
    .authorizationList
  const out: Hex[] = []
  for (const item of list ?? []) {
    try {
      out.push(eoaCode7702RecoverAuthority(item).toString() as Hex)
    } catch {
      // not a valid signature: no authority
    }
  }
  return out
}

/** Reads a decoded, signed transaction's pool fields. Throws (geth's "invalid sender") when the signature recovers nobody. */
export function toPoolTransaction(tx: TypedTransaction, local: boolean, now = Date.now()): PoolTransaction {
  const t = tx as TypedTransaction & {
    maxFeePerGas?: bigint
    maxPriorityFeePerGas?: bigint
    gasPrice?: bigint
    maxFeePerBlobGas?: bigint
    blobVersionedHashes?: Uint8Array[]
  }
  const feeCap = t.maxFeePerGas ?? t.gasPrice ?? 0n
  const tip = t.maxPriorityFeePerGas ?? t.gasPrice ?? 0n
  const blobFeeCap = t.maxFeePerBlobGas ?? 0n
  const blobGas = BigInt(t.blobVersionedHashes?.length ?? 0) * GAS_PER_BLOB
  return {
    tx,
    hash: bytesToHex(tx.hash()) as Hex,
    sender: tx.getSenderAddress().toString() as Hex,
    nonce: tx.nonce,
    gas: tx.gasLimit,
    feeCap,
    tip,
    blobFeeCap,
    blobGas,
    maxCost: tx.gasLimit * feeCap + tx.value + blobGas * blobFeeCap,
    local,
    addedAt: now,
    authorities: tx.type === 4 ? authoritiesOf(tx) : [],
  }
}
