import { describe, expect, it } from 'vitest'
import { createSignatureTable, signatureHash } from './createSignatureTable.js'
import { decodeLog } from './decodeLog.js'

const pad = (hex: string) => `0x${hex.replace(/^0x/, '').padStart(64, '0')}`
const TRANSFER = signatureHash('Transfer(address,address,uint256)')
const FROM = pad('a1')
const TO = pad('b2')

describe('decodeLog', () => {
  const table = createSignatureTable([
    'event Transfer(address indexed from, address indexed to, uint256 value)',
    'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
    'event Note(string text)',
  ])

  it('picks the item by its indexed parameters (ERC-20 and ERC-721 Transfer share a topic)', () => {
    const erc20 = decodeLog([TRANSFER, FROM, TO], pad('64'), [table])
    expect(erc20).toEqual({
      name: 'Transfer',
      signature: 'Transfer(address,address,uint256)',
      args: [
        { name: 'from', type: 'address', value: `0x${'0'.repeat(38)}a1` },
        { name: 'to', type: 'address', value: `0x${'0'.repeat(38)}b2` },
        { name: 'value', type: 'uint256', value: 100n },
      ],
    })
    const erc721 = decodeLog([TRANSFER, FROM, TO, pad('07')], '0x', [table])
    expect(erc721?.args.map((a) => a.name)).toEqual(['from', 'to', 'tokenId'])
    expect(erc721?.args[2]?.value).toBe(7n)
  })

  it('decodes dynamic data; unknown topics, too few topics and data that does not fit are undefined', () => {
    const text = new TextEncoder().encode('hi')
    const data = `${pad('20')}${pad('02').slice(2)}${Buffer.from(text).toString('hex').padEnd(64, '0')}`
    expect(decodeLog([signatureHash('Note(string)')], data, [table])?.args[0]?.value).toBe('hi')
    expect(decodeLog([pad('01')], '0x', [table])).toBeUndefined()
    expect(decodeLog([TRANSFER, FROM], pad('64'), [table])).toBeUndefined()
    expect(decodeLog([TRANSFER, FROM, TO], '0x01', [table])).toBeUndefined()
    expect(decodeLog([], '0x', [table])).toBeUndefined()
  })
})
