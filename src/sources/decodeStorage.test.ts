import { keccak_256 } from '@noble/hashes/sha3.js'
import { describe, expect, it } from 'vitest'
import { dataSlot } from './dataSlot.js'
import { type KeccakPreimage, type StorageWord, decodeStorage } from './decodeStorage.js'
import { parseStorageLayout } from './parseStorageLayout.js'

// Hand-built layouts in solc's shape, slots computed here by Solidity's rules (keccak256(key . slot)
// for mappings, keccak256(slot) + i for dynamic arrays).

const word = (v: bigint) => {
  const out = new Uint8Array(32)
  for (let i = 31, x = v; i >= 0; i--, x >>= 8n) out[i] = Number(x & 0xffn)
  return out
}
const big = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`)
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}
/** A preimage the run would have hashed for `key` in the mapping at `slot`, and the entry's slot. */
const entry = (key: Uint8Array, slot: bigint): KeccakPreimage => {
  const input = concat(key, word(slot))
  return { input, hash: big(keccak_256(input)) }
}
const ALICE = 0xa11ce00000000000000000000000000000000001n
const BOB = 0xb0b0000000000000000000000000000000000002n
const hex40 = (a: bigint) => `0x${a.toString(16).padStart(40, '0')}`

const TYPES = {
  t_address: { encoding: 'inplace', label: 'address', numberOfBytes: '20' },
  t_bool: { encoding: 'inplace', label: 'bool', numberOfBytes: '1' },
  t_uint16: { encoding: 'inplace', label: 'uint16', numberOfBytes: '2' },
  t_uint8: { encoding: 'inplace', label: 'uint8', numberOfBytes: '1' },
  t_int8: { encoding: 'inplace', label: 'int8', numberOfBytes: '1' },
  t_int64: { encoding: 'inplace', label: 'int64', numberOfBytes: '8' },
  t_uint64: { encoding: 'inplace', label: 'uint64', numberOfBytes: '8' },
  t_uint128: { encoding: 'inplace', label: 'uint128', numberOfBytes: '16' },
  t_uint256: { encoding: 'inplace', label: 'uint256', numberOfBytes: '32' },
  t_bytes4: { encoding: 'inplace', label: 'bytes4', numberOfBytes: '4' },
  't_enum(Color)7': { encoding: 'inplace', label: 'enum Box.Color', numberOfBytes: '1' },
  t_string_storage: { encoding: 'bytes', label: 'string', numberOfBytes: '32' },
  t_string_memory_ptr: { encoding: 'bytes', label: 'string', numberOfBytes: '32' },
  't_mapping(t_address,t_uint256)': {
    encoding: 'mapping',
    key: 't_address',
    value: 't_uint256',
    label: 'mapping(address => uint256)',
    numberOfBytes: '32',
  },
  't_mapping(t_address,t_mapping(t_address,t_uint256))': {
    encoding: 'mapping',
    key: 't_address',
    value: 't_mapping(t_address,t_uint256)',
    label: 'mapping(address => mapping(address => uint256))',
    numberOfBytes: '32',
  },
  't_mapping(t_string_memory_ptr,t_uint256)': {
    encoding: 'mapping',
    key: 't_string_memory_ptr',
    value: 't_uint256',
    label: 'mapping(string => uint256)',
    numberOfBytes: '32',
  },
  't_mapping(t_address,t_struct(User)20_storage)': {
    encoding: 'mapping',
    key: 't_address',
    value: 't_struct(User)20_storage',
    label: 'mapping(address => struct Box.User)',
    numberOfBytes: '32',
  },
  't_array(t_uint256)dyn_storage': {
    encoding: 'dynamic_array',
    base: 't_uint256',
    label: 'uint256[]',
    numberOfBytes: '32',
  },
  't_array(t_uint8)5_storage': { encoding: 'inplace', base: 't_uint8', label: 'uint8[5]', numberOfBytes: '32' },
  't_struct(Config)12_storage': {
    encoding: 'inplace',
    label: 'struct Box.Config',
    numberOfBytes: '64',
    members: [
      { astId: 1, contract: 'Box.sol:Box', label: 'limit', offset: 0, slot: '0', type: 't_uint128' },
      { astId: 2, contract: 'Box.sol:Box', label: 'delta', offset: 16, slot: '0', type: 't_int64' },
      { astId: 3, contract: 'Box.sol:Box', label: 'admin', offset: 0, slot: '1', type: 't_address' },
      { astId: 4, contract: 'Box.sol:Box', label: 'tag', offset: 20, slot: '1', type: 't_bytes4' },
    ],
  },
  't_struct(Pool)30_storage': {
    encoding: 'inplace',
    label: 'struct Box.Pool',
    numberOfBytes: '64',
    members: [
      { astId: 7, contract: 'Box.sol:Box', label: 'total', offset: 0, slot: '0', type: 't_uint256' },
      {
        astId: 8,
        contract: 'Box.sol:Box',
        label: 'shares',
        offset: 0,
        slot: '1',
        type: 't_mapping(t_address,t_uint256)',
      },
    ],
  },
  't_array(t_struct(Pool)30_storage)3_storage': {
    encoding: 'inplace',
    base: 't_struct(Pool)30_storage',
    label: 'struct Box.Pool[3]',
    numberOfBytes: '192',
  },
  't_array(t_uint256)1000_storage': {
    encoding: 'inplace',
    base: 't_uint256',
    label: 'uint256[1000]',
    numberOfBytes: '32000',
  },
  't_struct(User)20_storage': {
    encoding: 'inplace',
    label: 'struct Box.User',
    numberOfBytes: '32',
    members: [
      { astId: 5, contract: 'Box.sol:Box', label: 'id', offset: 0, slot: '0', type: 't_uint64' },
      { astId: 6, contract: 'Box.sol:Box', label: 'active', offset: 8, slot: '0', type: 't_bool' },
    ],
  },
}
const v = (label: string, slot: number, type: string, offset = 0) => ({
  astId: slot,
  contract: 'Box.sol:Box',
  label,
  offset,
  slot: String(slot),
  type,
})
const LAYOUT = parseStorageLayout({
  storage: [
    v('owner', 0, 't_address'),
    v('paused', 0, 't_bool', 20),
    v('fee', 0, 't_uint16', 21),
    v('balances', 1, 't_mapping(t_address,t_uint256)'),
    v('allowance', 2, 't_mapping(t_address,t_mapping(t_address,t_uint256))'),
    v('items', 3, 't_array(t_uint256)dyn_storage'),
    v('config', 4, 't_struct(Config)12_storage'),
    v('name', 6, 't_string_storage'),
    v('small', 7, 't_array(t_uint8)5_storage'),
    v('byName', 8, 't_mapping(t_string_memory_ptr,t_uint256)'),
    v('users', 9, 't_mapping(t_address,t_struct(User)20_storage)'),
    v('color', 10, 't_enum(Color)7'),
    v('tilt', 10, 't_int8', 1),
    v('longText', 11, 't_string_storage'),
    v('pools', 12, 't_array(t_struct(Pool)30_storage)3_storage'),
    v('big', 18, 't_array(t_uint256)1000_storage'),
  ],
  types: TYPES,
})!

const slots = (entries: [bigint, bigint, bigint][]) =>
  new Map<bigint, StorageWord>(entries.map(([slot, before, after]) => [slot, { before, after }]))
const names = (d: ReturnType<typeof decodeStorage>) => d.variables.map((x) => `${x.name} = ${x.before} -> ${x.after}`)

describe('decodeStorage', () => {
  it('a packed slot: each variable by its offset, signed and enum values, booleans', () => {
    const before = ALICE | (1n << 160n) | (300n << 168n)
    const after = BOB | (0n << 160n) | (300n << 168n)
    const packed2 = 2n | (0xfen << 8n) // color 2, tilt -2
    const d = decodeStorage(
      LAYOUT,
      slots([
        [0n, before, after],
        [10n, 0n, packed2],
      ]),
      [],
    )
    expect(names(d)).toEqual([
      `owner = ${hex40(ALICE)} -> ${hex40(BOB)}`,
      'paused = true -> false',
      'fee = 300 -> 300',
      'color = 0 -> 2',
      'tilt = 0 -> -2',
    ])
    expect(d.variables.map((x) => [x.type, x.offset, x.changed])).toEqual([
      ['address', 0, true],
      ['bool', 20, true],
      ['uint16', 21, false],
      ['enum Box.Color', 0, true],
      ['int8', 1, true],
    ])
    expect(d.raw).toEqual([])
  })

  it('mapping entries by the keys hashed with their slot; nested mappings hash by hash; unexplained slots stay raw', () => {
    const alice = entry(word(ALICE), 1n)
    const outer = entry(word(ALICE), 2n)
    const inner = entry(word(BOB), outer.hash)
    const unknown = 0x1234n
    const d = decodeStorage(
      LAYOUT,
      slots([
        [alice.hash, 100n, 40n],
        [inner.hash, 0n, 7n],
        [unknown, 5n, 5n],
      ]),
      [alice, outer, inner, entry(word(BOB), 1n)], // Bob's balance was hashed, its slot not touched: not shown
    )
    expect(names(d)).toEqual([
      `balances[${hex40(ALICE)}] = 100 -> 40`,
      `allowance[${hex40(ALICE)}][${hex40(BOB)}] = 0 -> 7`,
    ])
    expect(d.variables[0]!.slot).toBe(`0x${alice.hash.toString(16).padStart(64, '0')}`)
    expect(d.raw).toEqual([
      {
        slot: `0x${unknown.toString(16).padStart(64, '0')}`,
        before: `0x${'0'.repeat(63)}5`,
        after: `0x${'0'.repeat(63)}5`,
        changed: false,
      },
    ])
    // Without the preimages, the same slots are raw.
    expect(decodeStorage(LAYOUT, slots([[alice.hash, 100n, 40n]]), []).raw.length).toBe(1)
  })

  it('a dynamic array: its length and the elements touched at keccak256(slot) + i', () => {
    const base = dataSlot(3n)
    expect(base).toBe(big(keccak_256(word(3n))))
    const d = decodeStorage(
      LAYOUT,
      slots([
        [3n, 2n, 3n],
        [base + 2n, 0n, 42n],
        [base + 5n, 9n, 9n], // past the length: not an element
      ]),
      [],
    )
    expect(names(d)).toEqual(['items.length = 2 -> 3', 'items[2] = 0 -> 42'])
    expect(d.raw.map((r) => BigInt(r.slot))).toEqual([base + 5n])
  })

  it('struct fields, packed ones included; a static array of packed uint8s; a struct in a mapping', () => {
    const user = entry(word(BOB), 9n)
    const d = decodeStorage(
      LAYOUT,
      slots([
        [4n, 1000n | (((1n << 64n) - 5n) << 128n), 1000n | (3n << 128n)],
        [5n, ALICE | (0xdeadbeefn << 160n), ALICE | (0xdeadbeefn << 160n)],
        [7n, 0n, 1n | (2n << 8n) | (255n << 32n)],
        [user.hash, 0n, 77n | (1n << 64n)],
      ]),
      [user],
    )
    expect(names(d)).toEqual([
      'config.limit = 1000 -> 1000',
      'config.delta = -5 -> 3',
      `config.admin = ${hex40(ALICE)} -> ${hex40(ALICE)}`,
      'config.tag = 0xdeadbeef -> 0xdeadbeef',
      'small[0] = 0 -> 1',
      'small[1] = 0 -> 2',
      'small[2] = 0 -> 0',
      'small[3] = 0 -> 0',
      'small[4] = 0 -> 255',
      `users[${hex40(BOB)}].id = 0 -> 77`,
      `users[${hex40(BOB)}].active = false -> true`,
    ])
  })

  it('strings: inline ones whole, long ones by length (their data slots named); string mapping keys', () => {
    const text = new TextEncoder().encode('hi there')
    const inline = big(concat(text, new Uint8Array(23), new Uint8Array([text.length * 2])))
    const longBase = dataSlot(11n)
    const key = entry(new TextEncoder().encode('gold'), 8n)
    const d = decodeStorage(
      LAYOUT,
      slots([
        [6n, 0n, inline],
        [11n, 0n, 40n * 2n + 1n],
        [longBase + 1n, 0n, 0x6162n << 240n],
        [key.hash, 1n, 2n],
      ]),
      [key],
    )
    expect(names(d)).toEqual([
      'name = "" -> "hi there"',
      `byName["gold"] = 1 -> 2`,
      'longText = "" -> <40 bytes>',
      `longText.data[1] = 0x${'0'.repeat(64)} -> 0x6162${'0'.repeat(60)}`,
    ])
  })

  it("a static array of structs holding a mapping: each element's entries; a long static array by the slots seen", () => {
    const share = entry(word(ALICE), 12n + 2n * 1n + 1n) // pools[1].shares: the second member of the second element
    const d = decodeStorage(
      LAYOUT,
      slots([
        [12n + 2n * 2n, 5n, 6n], // pools[2].total
        [share.hash, 0n, 3n],
        [18n + 700n, 1n, 0n], // big[700]
      ]),
      [share],
    )
    expect(names(d)).toEqual([
      `pools[1].shares[${hex40(ALICE)}] = 0 -> 3`,
      'pools[2].total = 5 -> 6',
      'big[700] = 1 -> 0',
    ])
    expect(d.raw).toEqual([])
  })

  it('a long string whose data slots were all seen, whole; a long one shrunk to an inline one', () => {
    const text = 'a string longer than thirty-one bytes, in two slots'
    const bytes = new TextEncoder().encode(text)
    const base = dataSlot(11n)
    const chunk = (i: number) => big(concat(bytes.subarray(i * 32, i * 32 + 32), new Uint8Array(32)).subarray(0, 32))
    const short = big(concat(new TextEncoder().encode('tiny'), new Uint8Array(27), new Uint8Array([8])))
    const d = decodeStorage(
      LAYOUT,
      slots([
        [11n, 0n, BigInt(bytes.length) * 2n + 1n],
        [base, 0n, chunk(0)],
        [base + 1n, 0n, chunk(1)],
      ]),
      [],
    )
    expect(names(d)).toEqual([`longText = "" -> ${JSON.stringify(text)}`])
    expect(d.raw).toEqual([]) // its data slots are part of it
    const shrunk = decodeStorage(
      LAYOUT,
      slots([
        [11n, BigInt(bytes.length) * 2n + 1n, short],
        [base, chunk(0), 0n],
        [base + 1n, chunk(1), 0n],
      ]),
      [],
    )
    expect(names(shrunk)).toEqual([`longText = ${JSON.stringify(text)} -> "tiny"`])
    // A word no string is stored as (inline, a length over 31): the word, not the first 31 bytes.
    const bogus = (0x61n << 8n) | 0x40n
    expect(names(decodeStorage(LAYOUT, slots([[6n, 0n, bogus]]), []))).toEqual([
      `name = "" -> 0x${bogus.toString(16).padStart(64, '0')}`,
    ])
  })

  it('a preimage that is no key of the mapping (an address word with high bits set) is not taken for one', () => {
    const bogus = entry(word((1n << 200n) | ALICE), 1n)
    const d = decodeStorage(LAYOUT, slots([[bogus.hash, 1n, 2n]]), [bogus])
    expect(d.variables).toEqual([])
    expect(d.raw.length).toBe(1)
  })

  it('a malformed layout is no layout', () => {
    expect(parseStorageLayout(undefined)).toBeUndefined()
    expect(
      parseStorageLayout({ storage: [{ label: 'x', slot: 'zero', offset: 0, type: 't_uint256' }], types: {} }),
    ).toBeUndefined()
    expect(parseStorageLayout({ storage: 'nope' })).toBeUndefined()
    expect(parseStorageLayout({ storage: [], types: null })).toEqual({ storage: [], types: new Map() })
  })
})
