import { bigIntToBytes, setLengthLeft } from '@ethereumjs/util'
import { expect, it } from 'vitest'
import { bytesOfWord } from './bytesOfWord.js'

it('gives a stack word’s 32 bytes, as ethereumjs pads them', () => {
  for (const word of [0n, 1n, 0xffn, 0x100n, 0xabcn, 2n ** 255n + 7n, 2n ** 256n - 1n, 0x1234567890abcdefn])
    expect(bytesOfWord(word)).toEqual(setLengthLeft(bigIntToBytes(word), 32))
})
