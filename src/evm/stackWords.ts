import { hexToBytes } from '@ethereumjs/util'
import type { Hex } from '../types/hex.js'

const ADDRESS_MASK = (1n << 160n) - 1n

/** The address in a stack word (its low 20 bytes), without going through a byte array. */
export const addressOfWord = (word: bigint) => `0x${(word & ADDRESS_MASK).toString(16).padStart(40, '0')}` as Hex

/**
 * A stack word as its 32 bytes (storage keys and values, log topics), from its hex digits
 * (ethereumjs' setLengthLeft pads by spreading arrays — a hot spot per SLOAD).
 */
export const bytesOfWord = (word: bigint): Uint8Array => hexToBytes(`0x${word.toString(16).padStart(64, '0')}`)
