import { keccak_256 } from '@noble/hashes/sha3.js'
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
      [slot(2).slice(2)]: `${'0'.repeat(62)}ff`, // a string of 127 bytes, its data slots not seen
      [slot(9).slice(2)]: `${'0'.repeat(63)}7`,
    }
    expect(stepStorageRows(storage, slots).map((r) => [r.name, r.value, r.named])).toEqual([
      ['flag', 'true', true],
      ['name', 'string, 127 bytes', true],
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

// Words laid out by Solidity's rules, built here: a `bytes`/`string` under 32 bytes inline (its bytes
// left-aligned, length × 2 in the low byte), a longer one's slot length × 2 + 1 and its bytes 32 a
// slot from keccak256(slot).
const hex64 = (v: bigint) => v.toString(16).padStart(64, '0')
const utf8 = (text: string) => new TextEncoder().encode(text)
const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
/** The storage (as a struct log gives it) holding `data` as a `bytes`/`string` at slot `at`. */
function stored(at: number, data: Uint8Array): Record<string, string> {
  if (data.length < 32)
    return { [hex64(BigInt(at))]: hexOf(data).padEnd(62, '0') + (data.length * 2).toString(16).padStart(2, '0') }
  const out = { [hex64(BigInt(at))]: hex64(BigInt(data.length) * 2n + 1n) }
  const base = BigInt(`0x${hexOf(keccak_256(Buffer.from(hex64(BigInt(at)), 'hex')))}`)
  for (let i = 0; i * 32 < data.length; i++)
    out[hex64(base + BigInt(i))] = hexOf(data.subarray(i * 32, i * 32 + 32)).padEnd(64, '0')
  return out
}
/** The rows' names and values. */
const shown = (storage: Record<string, string>, slots: Map<string, StorageVariable[]>) =>
  stepStorageRows(storage, slots).map((r) => [r.name, r.value])

describe('stepStorageRows: bytes and string as Solidity stores them', () => {
  const LONG = 'a string of more than thirty-one bytes, "quoted", in three slots — ünïcode'
  const slots = new Map([
    [slot(3), [variable('name', 'string', 3)]],
    [slot(4), [variable('data', 'bytes', 4)]],
  ])

  it('a short string quoted, short bytes in hex, an empty one empty; the hover keeps the slot and word', () => {
    const storage = { ...stored(3, utf8('hi "there"')), ...stored(4, new Uint8Array([0xde, 0xad, 0xbe, 0xef])) }
    expect(shown(storage, slots)).toEqual([
      ['data', '0xdeadbeef'],
      ['name', '"hi \\"there\\""'],
    ])
    const row = stepStorageRows(storage, slots).find((r) => r.name === 'name')!
    expect(row).toMatchObject({ slot: slot(3), word: `0x${storage[hex64(3n)]}`, named: true })
    // Read but never written: empty.
    expect(shown({ ...stored(3, utf8('')), ...stored(4, new Uint8Array()) }, slots)).toEqual([
      ['data', '0x'],
      ['name', '""'],
    ])
    // The longest inline one: 31 bytes.
    expect(shown(stored(3, utf8('x'.repeat(31))), slots)).toEqual([['name', `"${'x'.repeat(31)}"`]])
    // A word no string is stored as (inline, yet a length over 31): the word, not part of it.
    const bogus = `${'61'.repeat(31)}40`
    expect(shown({ [hex64(3n)]: bogus }, slots)).toEqual([['name', `0x${bogus}`]])
  })

  it("a long one whole when each data slot is in the step's storage, else by its length; its data slots raw", () => {
    const text = utf8(LONG)
    expect(text.length).toBeGreaterThan(64) // three data slots
    const storage = stored(3, text)
    const rows = stepStorageRows(storage, slots)
    expect(rows.map((r) => [r.name, r.value])[0]).toEqual(['name', JSON.stringify(LONG)])
    // Its data slots, which no variable names, stay raw rows.
    expect(rows.filter((r) => !r.named).length).toBe(3)
    // Exactly 32 bytes is long: one data slot.
    expect(shown(stored(3, utf8('y'.repeat(32))), slots)[0]).toEqual(['name', `"${'y'.repeat(32)}"`])
    // One data slot not seen yet (the middle one): its length, never part of it.
    const dataKeys = Object.keys(storage).slice(1)
    const missing = { ...storage }
    delete missing[dataKeys[1]!]
    expect(shown(missing, slots)[0]).toEqual(['name', `string, ${text.length} bytes`])
    // None seen yet.
    expect(shown({ [hex64(3n)]: storage[hex64(3n)]! }, slots)).toEqual([['name', `string, ${text.length} bytes`]])
  })

  it('long bytes in hex, whole or by length', () => {
    const bytes = Uint8Array.from({ length: 40 }, (_, i) => i + 1)
    const storage = stored(4, bytes)
    expect(shown(storage, slots)[0]).toEqual(['data', `0x${hexOf(bytes)}`])
    const missing = { ...storage }
    delete missing[Object.keys(storage)[2]!] // its second data slot
    expect(shown(missing, slots)[0]).toEqual(['data', 'bytes, 40 bytes'])
  })

  it('a string in a slot of its own beside packed variables: each read its own way', () => {
    const named = new Map([
      [slot(0), [variable('paused', 'bool', 0, 20), variable('owner', 'address', 0)]],
      [slot(1), [variable('title', 'string', 1)]],
    ])
    const storage = { [hex64(0n)]: `${'0'.repeat(22)}01${'cd'.repeat(20)}`, ...stored(1, utf8('Vault')) }
    expect(shown(storage, named)).toEqual([
      ['owner', `0x${'cd'.repeat(20)}`],
      ['paused', 'true'],
      ['title', '"Vault"'],
    ])
  })
})

describe('stepStorageRows: struct members, array elements and lengths, mapping entries, enums', () => {
  it('each decoded as its value type, as decodeStorage names them', () => {
    const owner = 'ab'.repeat(20)
    const named = new Map([
      // struct Config { address owner; uint96 fee; } config at slot 0 (packed)
      [slot(0), [variable('config.owner', 'address', 0), variable('config.fee', 'uint96', 0, 20)]],
      // uint64[4] items at slot 1: four to a slot
      [
        slot(1),
        [
          variable('items[0]', 'uint64', 1),
          variable('items[2]', 'uint64', 1, 16),
          variable('items[3]', 'uint64', 1, 24),
        ],
      ],
      // uint256[] list at slot 2: its length
      [slot(2), [variable('list.length', 'uint256', 2)]],
      // int8 delta and enum Vault.State state packed at slot 3
      [slot(3), [variable('delta', 'int8', 3), variable('state', 'enum Vault.State', 3, 1)]],
      // a mapping entry and a long string's data chunk (named when not every chunk was seen)
      [slot(5), [variable(`balanceOf[0x${owner}]`, 'uint256', 5)]],
      [slot(6), [variable('longText.data[1]', 'bytes32', 6)]],
    ])
    const storage = {
      [hex64(0n)]: hex64((2500n << 160n) | BigInt(`0x${owner}`)),
      [hex64(1n)]: hex64((9n << 192n) | (7n << 128n) | 5n),
      [hex64(2n)]: hex64(3n),
      [hex64(3n)]: hex64((2n << 8n) | 0xfen),
      [hex64(5n)]: hex64(10n ** 21n),
      [hex64(6n)]: `6162${'0'.repeat(60)}`,
    }
    expect(shown(storage, named)).toEqual([
      [`balanceOf[0x${owner}]`, '1000000000000000000000'],
      ['config.fee', '2500'],
      ['config.owner', `0x${owner}`],
      ['delta', '-2'],
      ['items[0]', '5'],
      ['items[2]', '7'],
      ['items[3]', '9'],
      ['list.length', '3'],
      ['longText.data[1]', `0x6162${'0'.repeat(60)}`],
      ['state', '2'],
    ])
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
