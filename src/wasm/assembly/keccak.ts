// Keccak-256 (the pre-standard padding the EVM uses: 0x01 … 0x80) over bytes of linear memory, on
// keccak-f[1600] with the 25 lanes as native u64s. The round constants, the rotation offsets and the
// lane permutation are derived at start-up from their definitions (the LFSR of the round constants,
// the (x, y) → (y, 2x + 3y) walk of rho and pi), not written out as tables.

import { KECCAK_OUT, KECCAK_PAD, KECCAK_ROUND, KECCAK_RHO, KECCAK_STATE } from './layout'

/** The sponge's rate for a 256-bit output: 1088 bits, 17 lanes. */
const RATE: usize = 136

/** One step of the round constants' LFSR, x^8 + x^6 + x^5 + x^4 + 1: the next state. */
function lfsrNext(r: u32): u32 {
  return (r & 0x80) != 0 ? ((r << 1) ^ 0x71) & 0xff : (r << 1) & 0xff
}

/** Fills the round constants and the rho/pi tables (KECCAK_RHO: per lane, its rotation and its destination). */
export function keccakInit(): void {
  // Round constants: bit 2^j - 1 of round i is the LFSR's output at step j + 7i.
  let r: u32 = 1
  for (let round: usize = 0; round < 24; round++) {
    let rc: u64 = 0
    for (let j: u64 = 0; j < 7; j++) {
      if ((r & 1) != 0) rc |= (<u64>1) << (((<u64>1) << j) - 1)
      r = lfsrNext(r)
    }
    store<u64>(KECCAK_ROUND + (round << 3), rc)
  }
  // Rho: lane (1, 0) rotates by 1, and the t-th lane of the walk by (t + 1)(t + 2) / 2; lane (0, 0) by 0.
  store<u8>(KECCAK_RHO, 0)
  let x: usize = 1
  let y: usize = 0
  for (let t: usize = 0; t < 24; t++) {
    store<u8>(KECCAK_RHO + x + 5 * y, <u8>((((t + 1) * (t + 2)) >> 1) % 64))
    const nx = y
    y = (2 * x + 3 * y) % 5
    x = nx
  }
  // Pi: lane (x, y) moves to (y, 2x + 3y).
  for (let yy: usize = 0; yy < 5; yy++)
    for (let xx: usize = 0; xx < 5; xx++) store<u8>(KECCAK_RHO + 32 + xx + 5 * yy, <u8>(yy + 5 * ((2 * xx + 3 * yy) % 5)))
}

/** keccak-f[1600] on the state at KECCAK_STATE (lane (x, y) at 8 * (x + 5y)). */
function permute(): void {
  const a = KECCAK_STATE
  const b = KECCAK_PAD // the permuted lanes between rho/pi and chi (the pad is free during a permutation)
  for (let round: usize = 0; round < 24; round++) {
    // Theta.
    const c0 = load<u64>(a) ^ load<u64>(a, 40) ^ load<u64>(a, 80) ^ load<u64>(a, 120) ^ load<u64>(a, 160)
    const c1 = load<u64>(a, 8) ^ load<u64>(a, 48) ^ load<u64>(a, 88) ^ load<u64>(a, 128) ^ load<u64>(a, 168)
    const c2 = load<u64>(a, 16) ^ load<u64>(a, 56) ^ load<u64>(a, 96) ^ load<u64>(a, 136) ^ load<u64>(a, 176)
    const c3 = load<u64>(a, 24) ^ load<u64>(a, 64) ^ load<u64>(a, 104) ^ load<u64>(a, 144) ^ load<u64>(a, 184)
    const c4 = load<u64>(a, 32) ^ load<u64>(a, 72) ^ load<u64>(a, 112) ^ load<u64>(a, 152) ^ load<u64>(a, 192)
    const d0 = c4 ^ rotl<u64>(c1, 1)
    const d1 = c0 ^ rotl<u64>(c2, 1)
    const d2 = c1 ^ rotl<u64>(c3, 1)
    const d3 = c2 ^ rotl<u64>(c4, 1)
    const d4 = c3 ^ rotl<u64>(c0, 1)
    // Theta's xor, rho's rotation and pi's move, lane by lane into b.
    for (let row: usize = 0; row < 25; row += 5) {
      const p = a + (row << 3)
      const q = KECCAK_RHO + row
      store<u64>(b + ((<usize>load<u8>(q, 32)) << 3), rotl<u64>(load<u64>(p) ^ d0, <u64>load<u8>(q)))
      store<u64>(b + ((<usize>load<u8>(q, 33)) << 3), rotl<u64>(load<u64>(p, 8) ^ d1, <u64>load<u8>(q, 1)))
      store<u64>(b + ((<usize>load<u8>(q, 34)) << 3), rotl<u64>(load<u64>(p, 16) ^ d2, <u64>load<u8>(q, 2)))
      store<u64>(b + ((<usize>load<u8>(q, 35)) << 3), rotl<u64>(load<u64>(p, 24) ^ d3, <u64>load<u8>(q, 3)))
      store<u64>(b + ((<usize>load<u8>(q, 36)) << 3), rotl<u64>(load<u64>(p, 32) ^ d4, <u64>load<u8>(q, 4)))
    }
    // Chi, row by row.
    for (let row: usize = 0; row < 200; row += 40) {
      const p = b + row
      const b0 = load<u64>(p)
      const b1 = load<u64>(p, 8)
      const b2 = load<u64>(p, 16)
      const b3 = load<u64>(p, 24)
      const b4 = load<u64>(p, 32)
      const o = a + row
      store<u64>(o, b0 ^ (~b1 & b2))
      store<u64>(o, b1 ^ (~b2 & b3), 8)
      store<u64>(o, b2 ^ (~b3 & b4), 16)
      store<u64>(o, b3 ^ (~b4 & b0), 24)
      store<u64>(o, b4 ^ (~b0 & b1), 32)
    }
    // Iota.
    store<u64>(a, load<u64>(a) ^ load<u64>(KECCAK_ROUND + (round << 3)))
  }
}

/** XORs a block of RATE bytes at p into the state. */
function absorb(p: usize): void {
  for (let i: usize = 0; i < RATE; i += 8) store<u64>(KECCAK_STATE + i, load<u64>(KECCAK_STATE + i) ^ load<u64>(p + i))
}

/** The Keccak-256 of the `len` bytes at `ptr`, written to KECCAK_OUT (32 bytes); answers KECCAK_OUT. */
export function keccak(ptr: usize, len: usize): usize {
  memory.fill(KECCAK_STATE, 0, 200)
  let p = ptr
  let left = len
  while (left >= RATE) {
    absorb(p)
    permute()
    p += RATE
    left -= RATE
  }
  // The last block: the rest, then the padding 0x01 … 0x80 (one byte 0x81 when only one is left).
  memory.copy(KECCAK_PAD, p, left)
  memory.fill(KECCAK_PAD + left, 0, RATE - left)
  store<u8>(KECCAK_PAD + left, load<u8>(KECCAK_PAD + left) | 0x01)
  store<u8>(KECCAK_PAD + RATE - 1, load<u8>(KECCAK_PAD + RATE - 1) | 0x80)
  absorb(KECCAK_PAD)
  permute()
  memory.copy(KECCAK_OUT, KECCAK_STATE, 32)
  return KECCAK_OUT
}
