import type { Hex } from '../types/hex.js'

const ADDRESS_MASK = (1n << 160n) - 1n

/** The address in a stack word (its low 20 bytes), without going through a byte array. */
export const addressOfWord = (word: bigint) => `0x${(word & ADDRESS_MASK).toString(16).padStart(40, '0')}` as Hex

const HEX_BYTE = new Map<string, number>()
for (let i = 0; i < 256; i++) HEX_BYTE.set(i.toString(16).padStart(2, '0'), i)

/**
 * A stack word as its 32 bytes (storage keys and values, log topics): from its hex digits, with no
 * intermediate arrays (ethereumjs' setLengthLeft pads by spreading arrays — a hot spot per SLOAD).
 */
export function bytesOfWord(word: bigint): Uint8Array {
  const out = new Uint8Array(32)
  if (word === 0n) return out
  const digits = word.toString(16)
  const padded = digits.length % 2 === 0 ? digits : `0${digits}`
  const offset = 32 - padded.length / 2
  for (let i = 0; i < padded.length; i += 2) out[offset + i / 2] = HEX_BYTE.get(padded.slice(i, i + 2))!
  return out
}
