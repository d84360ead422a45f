// The EIP-2929 warm set of storage slots: an open-addressing hash table (linear probing) of
// (address id, slot) keys, the address id a small number the host gives each address. Entries are
// 48 bytes: the slot's four limbs, the address id, and the generation (transaction) that warmed
// them: beginning a transaction bumps the generation, which empties the table without clearing it.
// Nothing is removed within a generation. (Frames that revert would need the entries they added
// removed: the real port's journal; this prototype runs one top-level frame.)

import { alloc } from './layout'

const ENTRY: usize = 48
let table: usize = 0
let capacityBits: u32 = 10
let count: u32 = 0
let generation: u32 = 1

export function warmInit(): void {
  table = alloc(ENTRY << capacityBits)
  memory.fill(table, 0, ENTRY << capacityBits)
}

/** Empties the set: a new transaction. */
export function warmReset(): void {
  generation++
  count = 0
}

function slotOf(k0: u64, k1: u64, k2: u64, k3: u64, addressId: u32): usize {
  let h = k0 ^ (k1 * 0xc2b2ae3d27d4eb4f) ^ (k2 * 0x165667b19e3779f9) ^ (k3 * 0x27d4eb2f165667c5)
  h ^= (<u64>addressId) * 0x9e3779b97f4a7c15
  h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9
  return <usize>(h >> (64 - <u64>capacityBits))
}

/** Whether the slot (a stack word at p) of the address is warm. */
export function isWarm(p: usize, addressId: u32): bool {
  const k0 = load<u64>(p)
  const k1 = load<u64>(p, 8)
  const k2 = load<u64>(p, 16)
  const k3 = load<u64>(p, 24)
  const mask: usize = (1 << capacityBits) - 1
  let i = slotOf(k0, k1, k2, k3, addressId)
  while (true) {
    const e = table + i * ENTRY
    if (load<u32>(e, 36) != generation) return false
    if (
      load<u64>(e) == k0 &&
      load<u64>(e, 8) == k1 &&
      load<u64>(e, 16) == k2 &&
      load<u64>(e, 24) == k3 &&
      load<u32>(e, 32) == addressId
    )
      return true
    i = (i + 1) & mask
  }
}

function insert(k0: u64, k1: u64, k2: u64, k3: u64, addressId: u32): void {
  const mask: usize = (1 << capacityBits) - 1
  let i = slotOf(k0, k1, k2, k3, addressId)
  while (load<u32>(table + i * ENTRY, 36) == generation) i = (i + 1) & mask
  const e = table + i * ENTRY
  store<u64>(e, k0)
  store<u64>(e, k1, 8)
  store<u64>(e, k2, 16)
  store<u64>(e, k3, 24)
  store<u32>(e, addressId, 32)
  store<u32>(e, generation, 36)
  count++
}

/** Warms a slot known to be cold (a stack word at p). */
export function addWarm(p: usize, addressId: u32): void {
  const capacity: u32 = 1 << capacityBits
  if ((count + 1) * 2 > capacity) grow()
  insert(load<u64>(p), load<u64>(p, 8), load<u64>(p, 16), load<u64>(p, 24), addressId)
}

/** Doubles the table (the old one is left behind: the heap never frees, and the largest table is kept). */
function grow(): void {
  const old = table
  const oldCapacity: usize = 1 << capacityBits
  capacityBits++
  table = alloc(ENTRY << capacityBits)
  memory.fill(table, 0, ENTRY << capacityBits)
  count = 0
  for (let i: usize = 0; i < oldCapacity; i++) {
    const e = old + i * ENTRY
    if (load<u32>(e, 36) == generation)
      insert(load<u64>(e), load<u64>(e, 8), load<u64>(e, 16), load<u64>(e, 24), load<u32>(e, 32))
  }
}
