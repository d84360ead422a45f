import { describe, expect, it } from 'vitest'
import { decodeSharedValue, encodeSharedValue } from './sharedValueCodec.js'

describe('the shared tier value codec', () => {
  it('gives back byte strings and bigints as they went in', () => {
    const value = {
      number: 17_000_000n,
      timestamp: 0n,
      rlp: new Uint8Array([0xf9, 0x02, 0x11]),
      list: [new Uint8Array(0), null, 'x'],
    }
    expect(decodeSharedValue(encodeSharedValue(value), 1024)).toEqual(value)
  })

  it('reads what it did not write as what it is, and what does not parse, or is too large, as nothing', () => {
    expect(decodeSharedValue('{"$b":"0xzz"}', 1024)).toEqual({ $b: '0xzz' })
    expect(decodeSharedValue('{"$b":"0x123"}', 1024)).toEqual({ $b: '0x123' })
    expect(decodeSharedValue('{"$n":"0x1","other":1}', 1024)).toEqual({ $n: '0x1', other: 1 })
    expect(decodeSharedValue('{"a":', 1024)).toBeUndefined()
    expect(decodeSharedValue(encodeSharedValue(new Uint8Array(600)), 1024)).toBeUndefined()
  })
})
