import type { Hex } from '../types/hex.js'
/** A storage key as 32-byte lowercase hex (upstreams and access lists may shorten it). */
export function bigIntToHex32(key: Hex | string): Hex {
  return `0x${BigInt(key).toString(16).padStart(64, '0')}` as Hex
}
