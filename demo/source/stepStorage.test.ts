import { describe, expect, it } from 'vitest'
import type { StorageVariable } from '../../src/sources/decodeStorage.js'
import { stepStorageRows, storageContextAt, wordKey } from './stepStorage.js'

const slot = (n: number) => wordKey(n.toString(16))
const variable = (name: string, type: string, at: number, offset = 0): StorageVariable => ({
  name,
  type,
  slot: slot(at),
  offset,
  before: '0',
  after: '0',
  changed: false,
})

describe('stepStorageRows', () => {
  it('names slots by variable (packed ones each, read from their bytes of the word now), the rest raw', () => {
    const slots = new Map([
      [slot(0), [variable('totalSupply', 'uint256', 0)]],
      // A packed slot: an address at offset 0 and a bool at offset 20.
      [slot(1), [variable('flag', 'bool', 1, 20), variable('owner', 'address', 1)]],
      [slot(2), [variable('name', 'string', 2)]],
    ])
    const owner = 'ab'.repeat(20)
    const storage = {
      [slot(0).slice(2)]: 1000n.toString(16).padStart(64, '0'),
      [slot(1).slice(2)]: `${'0'.repeat(22)}01${owner}`,
      [slot(2).slice(2)]: 'ff'.repeat(32),
      [slot(9).slice(2)]: `${'0'.repeat(63)}7`,
    }
    expect(stepStorageRows(storage, slots).map((r) => [r.name, r.value, r.named])).toEqual([
      ['flag', 'true', true],
      ['name', `0x${'ff'.repeat(32)}`, true], // not a value type: the word
      ['owner', `0x${owner}`, true],
      ['totalSupply', '1000', true],
      [slot(9), `0x${'0'.repeat(63)}7`, false],
    ])
    // Each row keeps its raw slot and word for the hover.
    expect(stepStorageRows(storage, slots)[3]).toMatchObject({ slot: slot(0), word: wordKey((1000).toString(16)) })
    // Without names: every slot raw.
    expect(stepStorageRows(storage, undefined).every((r) => !r.named && r.name === r.slot)).toBe(true)
  })
})

describe('storageContextAt', () => {
  it('the context of the last frame of that depth started at or before the step', () => {
    const frames: [number, number, string][] = [
      [0, 1, '0xAA'],
      [10, 2, '0xbb'],
      [20, 2, '0xcc'],
      [25, 3, '0xdd'],
    ]
    expect(storageContextAt(frames, 5, 1)).toBe('0xaa')
    expect(storageContextAt(frames, 15, 2)).toBe('0xbb')
    expect(storageContextAt(frames, 30, 1)).toBe('0xaa') // back in the top frame after its calls
    expect(storageContextAt(frames, 30, 2)).toBe('0xcc')
    expect(storageContextAt(frames, 5, 2)).toBeUndefined()
  })
})
