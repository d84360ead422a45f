const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/**
 * A 256-bit word as its 32 bytes, big-endian (stack words, storage keys and values, log topics, slot
 * numbers to hash): small words from a number, others as four 64-bit limbs written straight into the
 * array (no hex round trip, no padding by spreading arrays — hot spots per SLOAD of a traced run).
 */
export function bytesOfWord(word: bigint): Uint8Array {
  const bytes = new Uint8Array(32)
  if (word <= MAX_SAFE) {
    let n = Number(word)
    for (let i = 31; n > 0; i--) {
      bytes[i] = n % 256
      n = Math.floor(n / 256)
    }
    return bytes
  }
  const view = new DataView(bytes.buffer)
  // setBigUint64 keeps a value's low 64 bits.
  view.setBigUint64(24, word)
  view.setBigUint64(16, word >> 64n)
  view.setBigUint64(8, word >> 128n)
  view.setBigUint64(0, word >> 192n)
  return bytes
}
