// The frame's slots read or written since the host last ran an instruction that may change them
// (a call, a create: the host then calls invalidateSlots): an open-addressing hash table (linear
// probing) of slot keys and values. A slot found here is warm (its first SLOAD in the segment went
// to the host, which warmed it in @ethereumjs/evm's journal; an SSTORE warms it too) and its value
// is current, so its SLOAD costs no call to the host. Entries are 72 bytes: the key's four limbs,
// the value's four limbs, and the generation that filled them: invalidating bumps the generation,
// which empties the table without clearing it.

import { alloc } from './layout'

const ENTRY: usize = 72
let table: usize = 0
let capacityBits: u32 = 8
let count: u32 = 0
let generation: u32 = 1

export function slotsInit(): void {
  capacityBits = 8
  table = alloc(ENTRY << capacityBits)
  memory.fill(table, 0, ENTRY << capacityBits)
  count = 0
  generation = 1
}

/** Empties the table. */
export function invalidateSlots(): void {
  generation++
  count = 0
}

function indexOf(k0: u64, k1: u64, k2: u64, k3: u64): usize {
  let h = k0 ^ (k1 * 0xc2b2ae3d27d4eb4f) ^ (k2 * 0x165667b19e3779f9) ^ (k3 * 0x27d4eb2f165667c5)
  h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9
  h ^= h >> 32
  return <usize>(h >> (64 - <u64>capacityBits))
}

/** The entry of the key (a word at p), or 0. Its value is at entry + 32. */
export function findSlot(p: usize): usize {
  const k0 = load<u64>(p)
  const k1 = load<u64>(p, 8)
  const k2 = load<u64>(p, 16)
  const k3 = load<u64>(p, 24)
  const mask: usize = (1 << capacityBits) - 1
  let i = indexOf(k0, k1, k2, k3)
  while (true) {
    const e = table + i * ENTRY
    if (load<u32>(e, 64) != generation) return 0
    if (load<u64>(e) == k0 && load<u64>(e, 8) == k1 && load<u64>(e, 16) == k2 && load<u64>(e, 24) == k3) return e
    i = (i + 1) & mask
  }
}

function insert(k0: u64, k1: u64, k2: u64, k3: u64, value: usize): void {
  const mask: usize = (1 << capacityBits) - 1
  let i = indexOf(k0, k1, k2, k3)
  while (load<u32>(table + i * ENTRY, 64) == generation) i = (i + 1) & mask
  const e = table + i * ENTRY
  store<u64>(e, k0)
  store<u64>(e, k1, 8)
  store<u64>(e, k2, 16)
  store<u64>(e, k3, 24)
  memory.copy(e + 32, value, 32)
  store<u32>(e, generation, 64)
  count++
}

/** Sets the key's (a word at p) value to the word at `value`. */
export function putSlot(p: usize, value: usize): void {
  const e = findSlot(p)
  if (e != 0) {
    memory.copy(e + 32, value, 32)
    return
  }
  if ((count + 1) * 2 > (<u32>1) << capacityBits) grow()
  insert(load<u64>(p), load<u64>(p, 8), load<u64>(p, 16), load<u64>(p, 24), value)
}

/** Doubles the table (the old one is left behind: the heap is emptied only between frames). */
function grow(): void {
  const old = table
  const oldCapacity: usize = 1 << capacityBits
  capacityBits++
  table = alloc(ENTRY << capacityBits)
  memory.fill(table, 0, ENTRY << capacityBits)
  count = 0
  for (let i: usize = 0; i < oldCapacity; i++) {
    const e = old + i * ENTRY
    if (load<u32>(e, 64) == generation)
      insert(load<u64>(e), load<u64>(e, 8), load<u64>(e, 16), load<u64>(e, 24), e + 32)
  }
}
