import type { Hex } from '../../types/hex.js'

/** An address as a log topic (32 bytes, lowercase, 0x-prefixed): how indexed address arguments are logged. */
export const addressTopic = (address: Hex): Hex => `0x${addressWord(address)}`

/** An address as one ABI word of call data (64 hex digits, no 0x). */
export const addressWord = (address: Hex): string => address.slice(2).toLowerCase().padStart(64, '0')

/** An unsigned integer as one ABI word of call data (64 hex digits, no 0x). */
export const uintWord = (value: bigint): string => value.toString(16).padStart(64, '0')
