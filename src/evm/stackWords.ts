import type { Hex } from '../types/hex.js'

export { bytesOfWord } from '../utils/bytesOfWord.js'

const ADDRESS_MASK = (1n << 160n) - 1n

/** The address in a stack word (its low 20 bytes), without going through a byte array. */
export const addressOfWord = (word: bigint) => `0x${(word & ADDRESS_MASK).toString(16).padStart(40, '0')}` as Hex
