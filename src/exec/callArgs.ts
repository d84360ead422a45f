import type { TypedTransaction } from '@ethereumjs/tx'
import { bytesToHex } from '@ethereumjs/util'
import type { Hex } from '../types/hex.js'
import { quantity } from '../utils/hex.js'
import type { CallArgs } from './types.js'

/**
 * A signed transaction as the call it makes: its sender (recovered from the signature), recipient,
 * gas, value, data, nonce, fees and access list.
 */
export function callArgsOfTransaction(tx: TypedTransaction): CallArgs {
  const args: CallArgs = {
    from: tx.getSenderAddress().toString() as Hex,
    gas: tx.gasLimit,
    value: tx.value,
    data: bytesToHex(tx.data) as Hex,
    nonce: tx.nonce,
  }
  if (tx.to) args.to = tx.to.toString() as Hex
  if ('maxFeePerGas' in tx) {
    args.maxFeePerGas = tx.maxFeePerGas
    args.maxPriorityFeePerGas = tx.maxPriorityFeePerGas
  } else args.gasPrice = (tx as { gasPrice: bigint }).gasPrice
  if ('accessList' in tx) {
    args.accessList = (tx.accessList as [Uint8Array, Uint8Array[]][]).map(([a, keys]) => ({
      address: bytesToHex(a) as Hex,
      storageKeys: keys.map((k) => bytesToHex(k) as Hex),
    }))
  }
  return args
}

/**
 * CallArgs back to their JSON-RPC form (to ask the upstream for eth_createAccessList). The text is
 * also part of a persisted cache key: its fields and their order must not change.
 */
export function toRpcCallArgs(args: CallArgs): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  if (args.from) out.from = args.from
  if (args.to) out.to = args.to
  if (args.gas !== undefined) out.gas = quantity(args.gas)
  if (args.gasPrice !== undefined) out.gasPrice = quantity(args.gasPrice)
  if (args.maxFeePerGas !== undefined) out.maxFeePerGas = quantity(args.maxFeePerGas)
  if (args.maxPriorityFeePerGas !== undefined) out.maxPriorityFeePerGas = quantity(args.maxPriorityFeePerGas)
  if (args.value !== undefined) out.value = quantity(args.value)
  if (args.data) out.input = args.data
  if (args.nonce !== undefined) out.nonce = quantity(args.nonce)
  if (args.accessList) out.accessList = args.accessList
  return out
}
