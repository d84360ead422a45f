import type { StorageLayoutType } from './parseStorageLayout.js'

const hexOf = (value: bigint, bytes: number) => `0x${value.toString(16).padStart(bytes * 2, '0')}`

/** A value of `bytes` bytes read as a signed two's-complement number. */
const signed = (value: bigint, bytes: number) => {
  const bits = BigInt(bytes * 8)
  return value >= 1n << (bits - 1n) ? value - (1n << bits) : value
}

/**
 * A value type's text from its `numberOfBytes` bytes at `offset` of a slot's word: numbers and enums
 * in decimal, bools as true/false, addresses and contracts as 0x and 40 hex digits, `bytesN` and
 * anything else (function pointers, user-defined value types) as hex of its width.
 */
export function readStorageValue(type: StorageLayoutType, word: bigint, offset: number): string {
  const bytes = Math.min(Math.max(type.numberOfBytes, 1), 32 - offset)
  const value = (word >> BigInt(offset * 8)) & ((1n << BigInt(bytes * 8)) - 1n)
  const label = type.label
  if (label === 'bool') return value === 0n ? 'false' : 'true'
  if (label === 'address' || label === 'address payable' || label.startsWith('contract ')) return hexOf(value, 20)
  if (/^uint\d*$/.test(label) || label.startsWith('enum ')) return value.toString()
  if (/^int\d*$/.test(label)) return signed(value, bytes).toString()
  return hexOf(value, bytes)
}

/**
 * A mapping key's text from how Solidity hashes it with the slot (`keccak256(h(key) . slot)`): a
 * value type padded to a word (numbers right-aligned, `bytesN` left-aligned), `string` and `bytes`
 * as they are. Undefined when the bytes cannot be such a key (a short word, an address with high
 * bits set): that preimage hashed something else.
 */
export function readMappingKey(type: StorageLayoutType, key: Uint8Array): string | undefined {
  if (type.encoding === 'bytes')
    return type.label === 'string' ? JSON.stringify(new TextDecoder().decode(key)) : hex(key)
  if (type.encoding !== 'inplace' || key.length !== 32 || type.members || type.base) return undefined
  const word = BigInt(hex(key))
  const label = type.label
  const bytesN = /^bytes(\d+)$/.exec(label)
  if (bytesN) {
    const n = Number(bytesN[1])
    if (key.subarray(n).some((b) => b !== 0)) return undefined
    return hex(key.subarray(0, n))
  }
  if (/^int\d*$/.test(label)) {
    const bits = BigInt(type.numberOfBytes * 8)
    const value = signed(word, 32)
    return value >= -(1n << (bits - 1n)) && value < 1n << (bits - 1n) ? value.toString() : undefined
  }
  if (word >> BigInt(type.numberOfBytes * 8) !== 0n) return undefined
  if (label === 'bool' && word > 1n) return undefined
  return readStorageValue(type, word, 0)
}

function hex(bytes: Uint8Array): string {
  let s = '0x'
  for (const b of bytes) s += b.toString(16).padStart(2, '0')
  return s
}
