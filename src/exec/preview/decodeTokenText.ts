import type { Hex } from '../../types/hex.js'

/**
 * A token's `symbol()` or `name()` return data as text: an ABI `string`, or a `bytes32` (older tokens
 * such as MKR) with its trailing zero bytes cut; null for anything else (no code, a revert, no text).
 */
export function decodeTokenText(data: Hex | null): string | null {
  if (data === null) return null
  const hex = data.slice(2)
  const bytesOf = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (b) => Number.parseInt(b, 16))
  const text = (b: Uint8Array) => {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(b)
    } catch {
      return null
    }
  }
  if (hex.length === 64) {
    const raw = bytesOf(hex)
    let end = raw.length
    while (end > 0 && raw[end - 1] === 0) end--
    return text(raw.subarray(0, end))
  }
  if (hex.length < 128) return null
  const offset = BigInt(`0x${hex.slice(0, 64)}`)
  if (offset % 32n !== 0n || offset * 2n + 64n > BigInt(hex.length)) return null
  const start = Number(offset) * 2
  const length = BigInt(`0x${hex.slice(start, start + 64)}`)
  if (BigInt(start + 64) + length * 2n > BigInt(hex.length)) return null
  return text(bytesOf(hex.slice(start + 64, start + 64 + Number(length) * 2)))
}
