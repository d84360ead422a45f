import { describe, expect, it } from 'vitest'
import { HINT_MAX_ITEMS, checkHint } from './checkHint.js'

const address = (i: number) => `0x${i.toString(16).padStart(40, '0')}`
const word = (i: number) => `0x${i.toString(16).padStart(64, '0')}`

describe('checkHint', () => {
  it("accepts the hints edgetrace writes: a footprint, a callee's code hash, the upstream's access lists", () => {
    const footprint = {
      recordedBy: '0xab:0x1:0x0:0x12345678',
      entries: [
        { address: address(1), slots: [word(1)], codeHash: word(9) },
        { address: address(2), slots: [] },
      ],
    }
    expect(checkHint('footprint', footprint)).toBe(true)
    expect(checkHint('calleeCode', word(9))).toBe(true)
    // The upstream may spell addresses checksummed.
    const list = [{ address: '0xAbCd000000000000000000000000000000000001', storageKeys: [word(3)] }]
    expect(checkHint('callAccessList', list)).toBe(true)
    expect(checkHint('blockAccessLists', [])).toBe(true)
  })

  it('refuses a malformed hint', () => {
    expect(checkHint('calleeCode', '0x12')).toBe(false)
    expect(checkHint('calleeCode', { codeHash: word(1) })).toBe(false)
    expect(checkHint('footprint', { entries: [] })).toBe(false)
    expect(checkHint('footprint', { recordedBy: '', entries: [{ address: 'nope', slots: [] }] })).toBe(false)
    expect(checkHint('footprint', { recordedBy: '', entries: [{ address: address(1), slots: ['0x1'] }] })).toBe(false)
    expect(checkHint('footprint', { recordedBy: '', entries: [], extra: 1 })).toBe(false)
    expect(checkHint('callAccessList', [{ address: address(1) }])).toBe(false)
    expect(checkHint('callAccessList', [{ address: address(1), storageKeys: [word(1)], more: [] }])).toBe(false)
    expect(checkHint('blockAccessLists', { accessList: [] })).toBe(false)
  })

  it('refuses a hint over its bound: a poisoned one costs at most that much prefetching', () => {
    const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ address: address(i), slots: [] }))
    expect(checkHint('footprint', { recordedBy: '', entries: entries(HINT_MAX_ITEMS.footprint) })).toBe(true)
    expect(checkHint('footprint', { recordedBy: '', entries: entries(HINT_MAX_ITEMS.footprint + 1) })).toBe(false)
    // Addresses and storage keys count together.
    const wide = [
      { address: address(1), storageKeys: Array.from({ length: HINT_MAX_ITEMS.callAccessList }, (_, i) => word(i)) },
    ]
    expect(checkHint('callAccessList', wide)).toBe(false)
    expect(checkHint('blockAccessLists', wide)).toBe(true)
  })
})
