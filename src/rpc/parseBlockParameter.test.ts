import { describe, expect, it } from 'vitest'
import { parseBlockField, parseBlockParameter } from './parseBlockParameter.js'

const HASH = `0x${'ab'.repeat(32)}`

describe('parseBlockParameter (EIP-1898)', () => {
  it('takes tags, hex and decimal numbers, hashes and objects', () => {
    expect(parseBlockParameter('latest')).toEqual({ kind: 'tag', tag: 'latest' })
    expect(parseBlockParameter('0x1f')).toEqual({ kind: 'number', number: 31n })
    expect(parseBlockParameter('31')).toEqual({ kind: 'number', number: 31n })
    expect(parseBlockParameter(31)).toEqual({ kind: 'number', number: 31n })
    expect(parseBlockParameter(HASH)).toEqual({ kind: 'hash', hash: HASH, requireCanonical: false })
    expect(parseBlockParameter({ blockHash: HASH, requireCanonical: true })).toEqual({
      kind: 'hash',
      hash: HASH,
      requireCanonical: true,
    })
    expect(parseBlockParameter({ blockNumber: '0x2' })).toEqual({ kind: 'number', number: 2n })
  })

  it('rejects what is none of those', () => {
    expect(() => parseBlockParameter('newest')).toThrow('expected a block number, tag or hash')
    expect(() => parseBlockParameter(-1)).toThrow('invalid block number -1: expected a non-negative integer')
    expect(() => parseBlockParameter(2 ** 63)).toThrow('block number larger than int64')
    expect(() => parseBlockParameter(Number.POSITIVE_INFINITY)).toThrow('invalid block number Infinity')
    expect(() => parseBlockParameter('0x8000000000000000')).toThrow('block number larger than int64')
    expect(() => parseBlockParameter({ blockHash: HASH, blockNumber: '0x1' })).toThrow('cannot specify both')
    expect(() => parseBlockParameter({ blockHash: '0x12' })).toThrow('hex string has length 2, want 64 for common.Hash')
  })

  it('names the member a block parameter came from', () => {
    expect(parseBlockField('fromBlock', '0x2')).toEqual({ kind: 'number', number: 2n })
    expect(() => parseBlockField('fromBlock', '0x8000000000000000')).toThrow(
      'field "fromBlock": block number larger than int64',
    )
  })
})
