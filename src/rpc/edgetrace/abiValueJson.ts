import type { AbiValue } from '../../utils/abi/decodeAbi.js'
import { quantity } from '../../utils/hex.js'

export type AbiValueJson = string | boolean | AbiValueJson[]

/** A decoded ABI value as answered: numbers as quantities (`-0x…` below zero), bools as booleans, bytes and addresses as hex. */
export function abiValueJson(value: AbiValue): AbiValueJson {
  if (Array.isArray(value)) return value.map(abiValueJson)
  if (typeof value === 'bigint') return value < 0n ? `-${quantity(-value)}` : quantity(value)
  return value
}
