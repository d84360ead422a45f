import { describe, expect, it } from 'vitest'
import type { StorageLayoutType } from './parseStorageLayout.js'
import { readMappingKey, readStorageValue } from './readStorageValue.js'

const type = (label: string, numberOfBytes: number, encoding: StorageLayoutType['encoding'] = 'inplace') => ({
  encoding,
  label,
  numberOfBytes,
})
const word = (v: bigint) => {
  const out = new Uint8Array(32)
  for (let i = 31, x = v & ((1n << 256n) - 1n); i >= 0; i--, x >>= 8n) out[i] = Number(x & 0xffn)
  return out
}

describe('readStorageValue', () => {
  it('reads each value type at its offset and width', () => {
    const w = 0xffn | (0x8000n << 8n) | (1n << 24n) | (0xabcdn << 32n)
    expect(readStorageValue(type('uint8', 1), w, 0)).toBe('255')
    expect(readStorageValue(type('int16', 2), w, 1)).toBe('-32768')
    expect(readStorageValue(type('bool', 1), w, 3)).toBe('true')
    expect(readStorageValue(type('bytes2', 2), w, 4)).toBe('0xabcd')
    expect(readStorageValue(type('enum A.B', 1), w, 0)).toBe('255')
    expect(readStorageValue(type('contract Token', 20), 0xbeefn, 0)).toBe(`0x${'0'.repeat(36)}beef`)
    expect(readStorageValue(type('int256', 32), (1n << 256n) - 1n, 0)).toBe('-1')
    // A function pointer or a user-defined value type: hex of its width.
    expect(readStorageValue(type('function () external', 24), 0x1234n, 0)).toBe(`0x${'0'.repeat(44)}1234`)
  })
})

describe('readMappingKey', () => {
  it('value-type keys as Solidity pads them; strings and bytes as they are', () => {
    expect(readMappingKey(type('address', 20), word(0xabcn))).toBe(`0x${'0'.repeat(37)}abc`)
    expect(readMappingKey(type('uint256', 32), word(42n))).toBe('42')
    expect(readMappingKey(type('int32', 4), word(-7n))).toBe('-7')
    expect(readMappingKey(type('bool', 1), word(1n))).toBe('true')
    const left = new Uint8Array(32)
    left.set([0xde, 0xad, 0xbe, 0xef])
    expect(readMappingKey(type('bytes4', 4), left)).toBe('0xdeadbeef')
    expect(readMappingKey(type('string', 32, 'bytes'), new TextEncoder().encode('a"b'))).toBe(JSON.stringify('a"b'))
    expect(readMappingKey(type('bytes', 32, 'bytes'), new Uint8Array([1, 2]))).toBe('0x0102')
  })

  it('bytes that cannot be such a key are none', () => {
    expect(readMappingKey(type('address', 20), word(1n << 160n))).toBeUndefined()
    expect(readMappingKey(type('uint8', 1), word(256n))).toBeUndefined()
    expect(readMappingKey(type('int8', 1), word(-129n))).toBeUndefined()
    expect(readMappingKey(type('bool', 1), word(2n))).toBeUndefined()
    expect(readMappingKey(type('bytes4', 4), word(1n))).toBeUndefined() // right-aligned: not a bytes4
    expect(readMappingKey(type('uint256', 32), new Uint8Array(20))).toBeUndefined()
  })
})
