import type { Hex } from '../types/hex.js'

const ADDRESS_MASK = (1n << 160n) - 1n
const M64 = 0xffffffffffffffffn
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** The address in a stack word (its low 20 bytes), without going through a byte array. */
export const addressOfWord = (word: bigint) => `0x${(word & ADDRESS_MASK).toString(16).padStart(40, '0')}` as Hex

/**
 * A stack word as its 32 bytes, big-endian (storage keys and values, log topics): four 64-bit limbs
 * written straight into the array (ethereumjs' setLengthLeft pads by spreading arrays, and a round
 * trip through hex digits validates them again — both hot spots per SLOAD of a traced run).
 */
export const bytesOfWord = (word: bigint): Uint8Array => {
  const bytes = new Uint8Array(32)
  if (word <= MAX_SAFE) {
    // Most keys and values are small: their bytes from a number, without a view.
    let n = Number(word)
    for (let i = 31; n > 0; i--) {
      bytes[i] = n % 256
      n = Math.floor(n / 256)
    }
    return bytes
  }
  const view = new DataView(bytes.buffer)
  if (word <= M64) {
    view.setBigUint64(24, word)
    return bytes
  }
  // setBigUint64 keeps a value's low 64 bits.
  view.setBigUint64(24, word)
  view.setBigUint64(16, word >> 64n)
  view.setBigUint64(8, word >> 128n)
  view.setBigUint64(0, word >> 192n)
  return bytes
}
