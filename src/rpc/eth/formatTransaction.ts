import type { TypedTransaction } from '@ethereumjs/tx'
import { bytesToHex } from '@ethereumjs/util'
import type { Hex } from '../../types/hex.js'
import { quantity } from '../../utils/hex.js'

/** Where a transaction was mined (absent for a pending one). */
export type TransactionPlace = {
  blockHash: Hex
  blockNumber: bigint
  blockTimestamp: bigint
  index: number
  baseFee: bigint | undefined
}

/** A quantity as hexutil writes it (ethereumjs writes some fields as byte strings: "0x" for zero, leading zeros). */
const q = (hex: string | undefined): Hex => quantity(hex === undefined || hex === '0x' ? 0n : BigInt(hex))

/**
 * A transaction in geth's RPCTransaction shape, built from the decoded (so hashed and verified)
 * transaction, never from the upstream's JSON: the hash is computed, the sender recovered, the gas
 * price of a dynamic-fee transaction in a block the effective one (base fee + capped tip).
 */
export function formatTransaction(tx: TypedTransaction, place: TransactionPlace | undefined): Record<string, unknown> {
  const j = tx.toJSON()
  const typed = tx.type !== 0
  const out: Record<string, unknown> = {
    blockHash: place?.blockHash ?? null,
    blockNumber: place ? quantity(place.blockNumber) : null,
    blockTimestamp: place ? quantity(place.blockTimestamp) : null,
    from: tx.getSenderAddress().toString(),
    gas: q(j.gasLimit),
    // geth: the effective price in a block with a base fee; the fee cap of a pending one.
    gasPrice: quantity(effectiveGasPrice(tx, place?.baseFee)),
  }
  if (j.maxFeePerGas !== undefined) {
    out.maxFeePerGas = q(j.maxFeePerGas)
    out.maxPriorityFeePerGas = q(j.maxPriorityFeePerGas)
  }
  if (j.maxFeePerBlobGas !== undefined) out.maxFeePerBlobGas = q(j.maxFeePerBlobGas)
  Object.assign(out, {
    hash: bytesToHex(tx.hash()),
    input: j.data ?? '0x',
    nonce: q(j.nonce),
    to: j.to ?? null,
    transactionIndex: place ? quantity(place.index) : null,
    value: q(j.value),
    type: quantity(tx.type),
  })
  if (typed) {
    out.accessList = j.accessList ?? []
    out.chainId = q(j.chainId)
  } else if (j.chainId !== undefined && isProtected(j.v)) {
    out.chainId = q(j.chainId)
  }
  if (j.blobVersionedHashes !== undefined) out.blobVersionedHashes = j.blobVersionedHashes
  if (j.authorizationList !== undefined) {
    out.authorizationList = j.authorizationList.map((a) => ({
      chainId: q(a.chainId),
      address: a.address.toLowerCase(),
      nonce: q(a.nonce),
      yParity: q(a.yParity),
      r: q(a.r),
      s: q(a.s),
    }))
  }
  out.v = q(j.v)
  out.r = q(j.r)
  out.s = q(j.s)
  if (typed) out.yParity = q(j.v)
  return out
}

/** What a transaction pays per gas: its gas price, or base fee + tip capped by the fee cap (EIP-1559); the fee cap without a base fee. */
export function effectiveGasPrice(tx: TypedTransaction, baseFee: bigint | undefined): bigint {
  if ('maxFeePerGas' in tx) {
    if (baseFee === undefined) return tx.maxFeePerGas
    const room = tx.maxFeePerGas - baseFee
    return baseFee + (tx.maxPriorityFeePerGas < room ? tx.maxPriorityFeePerGas : room)
  }
  return tx.gasPrice
}

/** A legacy transaction is replay-protected (EIP-155) when its v is neither 27 nor 28. */
function isProtected(v: string | undefined): boolean {
  if (v === undefined) return false
  const n = BigInt(v)
  return n !== 27n && n !== 28n
}
