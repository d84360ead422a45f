import { describe, expect, it } from 'vitest'
import { groupAccessList } from './groupAccessList.js'
import type { Hex } from '../types/hex.js'

const A = '0x00000000000000000000000000000000000000Aa'
const B = '0x00000000000000000000000000000000000000bb'
const slot = (n: number) => `0x${n.toString(16).padStart(64, '0')}`

describe('groupAccessList', () => {
  it('gives each account once, lowercased, in the order first listed, with its slots as 32-byte hex, each once', () => {
    const grouped = groupAccessList([
      { address: A, storageKeys: ['0x1', slot(2) as Hex] },
      { address: B, storageKeys: [] },
      { address: A.toLowerCase() as Hex, storageKeys: ['0x01', '0xAB'] },
    ])
    expect([...grouped.keys()]).toEqual([A.toLowerCase(), B])
    expect([...grouped.get(A.toLowerCase() as Hex)!]).toEqual([slot(1), slot(2), slot(0xab)])
    expect([...grouped.get(B)!]).toEqual([])
  })

  it('refuses a storage key that is not a number', () => {
    expect(() => groupAccessList([{ address: A, storageKeys: ['0xzz'] }])).toThrow()
  })
})
