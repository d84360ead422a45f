import { dataSlot } from './dataSlot.js'
import type { StorageLayout, StorageLayoutType } from './parseStorageLayout.js'
import { readStorageBytes } from './readStorageBytes.js'
import { readMappingKey, readStorageValue } from './readStorageValue.js'

/** A slot's word before and after (the transaction), as the state manager saw them. */
export type StorageWord = { before: bigint; after: bigint }

/** Bytes a KECCAK256 hashed during the run, and the hash it pushed. */
export type KeccakPreimage = { input: Uint8Array; hash: bigint }

/** One variable (or element, field, mapping entry) a slot holds, named as Solidity writes it. */
export type StorageVariable = {
  /** `owner`, `balances[0xabc…]`, `config.paused`, `items[2]`, `items.length`, `allowance[0x…][0x…]`. */
  name: string
  /** Its Solidity type (`uint128`, `address`, `string`…). */
  type: string
  /** The slot it lies in (0x and 64 hex digits). */
  slot: string
  /** Its byte offset in the slot (from the low-order end; several variables share a slot when packed). */
  offset: number
  /** Its value before and after, as text (numbers in decimal; addresses, bytes in hex; strings quoted). */
  before: string
  after: string
  changed: boolean
}

/** A slot no variable of the layout explains (or one whose mapping key was not seen hashed). */
export type RawStorageSlot = { slot: string; before: string; after: string; changed: boolean }

export type DecodedStorage = { variables: StorageVariable[]; raw: RawStorageSlot[] }

const WORD = (1n << 256n) - 1n
/** Arrays up to this many elements are walked whole for elements stored elsewhere (mappings, dynamic arrays). */
const WALK_ALL = 256
/**
 * Elements an array whose length slot was not seen may have: slots within this many of its data
 * slot are taken for elements (a hashed slot lands this close to another by chance 1 in 2^216).
 */
const UNKNOWN_LENGTH = 1n << 40n
/** Most steps one decoding takes through the layout (arrays of structs of arrays of mappings…). */
const MAX_WALKS = 100_000
/** Types nested deeper than this are not followed (mappings of mappings of …). */
const MAX_DEPTH = 32

const word32 = (value: bigint) => value.toString(16).padStart(64, '0')
const slotHex = (slot: bigint) => `0x${word32(slot)}`
const toBig = (bytes: Uint8Array) => {
  let v = 0n
  for (const b of bytes) v = (v << 8n) | BigInt(b)
  return v
}

/** A long `bytes`/`string`'s length from its slot's word; 0 for an inline one. */
const longLength = (word: bigint) => ((word & 1n) === 1n ? (word - 1n) / 2n : 0n)

/**
 * Names the slots one contract's code read or wrote with its storage layout: plain and packed
 * value types, struct fields, static and dynamic arrays' elements (a dynamic array's at
 * keccak256(slot) + i, its length at its slot), inline `bytes`/`string` (long ones by their length),
 * and mapping entries whose key the run hashed with the mapping's slot (keccak256(key . slot),
 * from `preimages`; nested mappings follow hash by hash). Every variable of a slot that was read or
 * written is given (a packed slot: each of its variables). Slots none of this explains stay raw.
 */
export function decodeStorage(
  layout: StorageLayout,
  slots: ReadonlyMap<bigint, StorageWord>,
  preimages: Iterable<KeccakPreimage>,
): DecodedStorage {
  const variables: StorageVariable[] = []
  const claimed = new Set<bigint>()
  const observed = [...slots.keys()]
  /** Preimages by their last word (the mapping's slot), with what came before it (the key); built at the first mapping. */
  let byTail: Map<bigint, { key: Uint8Array; hash: bigint }[]> | undefined
  const entriesOf = (slot: bigint) => {
    if (!byTail) {
      byTail = new Map()
      for (const p of preimages) {
        if (p.input.length < 32) continue
        const tail = toBig(p.input.subarray(p.input.length - 32))
        let list = byTail.get(tail)
        if (!list) byTail.set(tail, (list = []))
        list.push({ key: p.input.subarray(0, p.input.length - 32), hash: p.hash })
      }
    }
    return byTail.get(slot) ?? []
  }
  /** Observed slots in [from, from + count), wrapping past 2^256 as slot arithmetic does. */
  const observedIn = (from: bigint, count: bigint) => observed.filter((s) => ((s - from) & WORD) < count)

  const emit = (name: string, type: StorageLayoutType, slot: bigint, offset: number) => {
    const word = slots.get(slot)
    if (!word) return
    claimed.add(slot)
    const before = readStorageValue(type, word.before, offset)
    const after = readStorageValue(type, word.after, offset)
    variables.push({ name, type: type.label, slot: slotHex(slot), offset, before, after, changed: before !== after })
  }

  /** The elements of an array at `base`: `length` of them (undefined: as many as observed slots reach). */
  const elements = (path: string, elementId: string, base: bigint, length: bigint | undefined, depth: number) => {
    const element = layout.types.get(elementId)
    if (!element) return
    const size = BigInt(Math.max(element.numberOfBytes, 1))
    const packed = element.encoding === 'inplace' && !element.members && !element.base && size <= 32n
    if (packed) {
      const perSlot = 32n / size
      const span = length === undefined ? UNKNOWN_LENGTH : (length + perSlot - 1n) / perSlot
      for (const s of observedIn(base, span).sort((a, b) => (a < b ? -1 : 1))) {
        const at = (s - base) & WORD
        for (let j = 0n; j < perSlot; j++) {
          const i = at * perSlot + j
          if (length !== undefined && i >= length) break
          emit(`${path}[${i}]`, element, s, Number(j * size))
        }
      }
      return
    }
    const slotsPer = (size + 31n) / 32n
    // Elements that keep values elsewhere (a mapping's entries) are found from their slot, not from
    // the slots seen: each is walked, in a short array. Others only where a slot was seen.
    if (length !== undefined && length <= BigInt(WALK_ALL) && elsewhere(elementId, 0)) {
      for (let i = 0n; i < length; i++) walk(elementId, (base + i * slotsPer) & WORD, 0, `${path}[${i}]`, depth + 1)
      return
    }
    const span = length === undefined ? UNKNOWN_LENGTH : length * slotsPer
    const indexes = new Set(observedIn(base, span).map((s) => ((s - base) & WORD) / slotsPer))
    for (const i of [...indexes].sort((a, b) => (a < b ? -1 : 1)))
      walk(elementId, (base + i * slotsPer) & WORD, 0, `${path}[${i}]`, depth + 1)
  }

  /** Whether a type keeps values outside its own slots (a mapping, a dynamic array, `bytes` inside it). */
  const outside = new Map<string, boolean>()
  const elsewhere = (typeId: string, depth: number): boolean => {
    const known = outside.get(typeId)
    if (known !== undefined) return known
    const type = layout.types.get(typeId)
    let found = false
    if (type && depth <= MAX_DEPTH) {
      if (type.encoding !== 'inplace') found = true
      else if (type.members) found = type.members.some((m) => elsewhere(m.type, depth + 1))
      else if (type.base) found = elsewhere(type.base, depth + 1)
    }
    outside.set(typeId, found)
    return found
  }

  let budget = MAX_WALKS
  const walk = (typeId: string, slot: bigint, offset: number, path: string, depth: number): void => {
    const type = layout.types.get(typeId)
    if (!type || depth > MAX_DEPTH || budget-- <= 0) return
    if (type.encoding === 'mapping') {
      const key = type.key && layout.types.get(type.key)
      if (!key || !type.value) return
      for (const p of entriesOf(slot)) {
        const text = readMappingKey(key, p.key)
        if (text !== undefined) walk(type.value, p.hash, 0, `${path}[${text}]`, depth + 1)
      }
      return
    }
    if (type.encoding === 'dynamic_array') {
      const word = slots.get(slot)
      if (word) emit(`${path}.length`, { ...type, label: 'uint256', numberOfBytes: 32 }, slot, 0)
      const length = word ? (word.before > word.after ? word.before : word.after) : undefined
      if (type.base) elements(path, type.base, dataSlot(slot), length, depth)
      return
    }
    if (type.encoding === 'bytes') {
      const word = slots.get(slot)
      if (!word) return
      // A short value is inline; a long one is shown whole when each of its data slots was seen
      // (readStorageBytes), else by its length; a word no bytes/string is stored as, as it is.
      const base = dataSlot(slot)
      let whole = true
      const text = (w: bigint, side: keyof StorageWord) => {
        const read = readStorageBytes(type.label, slot, w, (s) => slots.get(s)?.[side])
        if (!read) return `0x${word32(w)}` // not a bytes/string's word: as it is
        if (read.text !== undefined) return read.text
        whole = false
        return `<${read.length} bytes>`
      }
      claimed.add(slot)
      const before = text(word.before, 'before')
      const after = text(word.after, 'after')
      variables.push({
        name: path,
        type: type.label,
        slot: slotHex(slot),
        offset: 0,
        before,
        after,
        changed: before !== after,
      })
      const long = longLength(word.before) > longLength(word.after) ? longLength(word.before) : longLength(word.after)
      const chunk: StorageLayoutType = { encoding: 'inplace', label: 'bytes32', numberOfBytes: 32 }
      for (const s of observedIn(base, (long + 31n) / 32n)) {
        // Shown whole on both sides: its data slots are part of it; else each is listed by its chunk.
        if (whole) claimed.add(s)
        else emit(`${path}.data[${(s - base) & WORD}]`, chunk, s, 0)
      }
      return
    }
    if (type.members) {
      const span = BigInt(Math.max(1, Math.ceil(type.numberOfBytes / 32)))
      if (!elsewhere(typeId, 0) && observedIn(slot, span).length === 0) return
      for (const m of type.members) walk(m.type, (slot + m.slot) & WORD, m.offset, `${path}.${m.label}`, depth + 1)
      return
    }
    if (type.base) {
      const length = /\[(\d+)\]$/.exec(type.label)
      if (length) elements(path, type.base, slot, BigInt(length[1]!), depth)
      return
    }
    emit(path, type, slot, offset)
  }

  for (const v of layout.storage) walk(v.type, v.slot, v.offset, v.label, 0)
  const raw: RawStorageSlot[] = []
  for (const [slot, word] of slots) {
    if (claimed.has(slot)) continue
    raw.push({
      slot: slotHex(slot),
      before: `0x${word32(word.before)}`,
      after: `0x${word32(word.after)}`,
      changed: word.before !== word.after,
    })
  }
  return { variables, raw }
}
