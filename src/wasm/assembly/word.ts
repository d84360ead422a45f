// 256-bit words: four u64 limbs, least significant first (limb i at byte offset 8 * i), which is
// also the word's little-endian byte order. The helpers here read their operands before writing the
// result, so a result may overwrite an operand.

import { DIV_Q, DIV_U, DIV_V, TMP_A, TMP_B, TMP_C, TMP_D, WIDE_N, WIDE_U, WIDE_V } from './layout'

export function isZero(p: usize): bool {
  return (load<u64>(p) | load<u64>(p, 8) | load<u64>(p, 16) | load<u64>(p, 24)) == 0
}

/** Whether the word's value is below 2^64. */
export function fits64(p: usize): bool {
  return (load<u64>(p, 8) | load<u64>(p, 16) | load<u64>(p, 24)) == 0
}

export function setU64(p: usize, v: u64): void {
  store<u64>(p, v)
  store<u64>(p, 0, 8)
  store<u64>(p, 0, 16)
  store<u64>(p, 0, 24)
}

export function copyWord(dst: usize, src: usize): void {
  store<u64>(dst, load<u64>(src))
  store<u64>(dst, load<u64>(src, 8), 8)
  store<u64>(dst, load<u64>(src, 16), 16)
  store<u64>(dst, load<u64>(src, 24), 24)
}

/** Unsigned a < b. */
export function lessThan(a: usize, b: usize): bool {
  let x = load<u64>(a, 24)
  let y = load<u64>(b, 24)
  if (x != y) return x < y
  x = load<u64>(a, 16)
  y = load<u64>(b, 16)
  if (x != y) return x < y
  x = load<u64>(a, 8)
  y = load<u64>(b, 8)
  if (x != y) return x < y
  return load<u64>(a) < load<u64>(b)
}

/** Signed (two's complement) a < b. */
export function signedLessThan(a: usize, b: usize): bool {
  const sa = load<u64>(a, 24) >> 63
  const sb = load<u64>(b, 24) >> 63
  if (sa != sb) return sa > sb
  return lessThan(a, b)
}

export function equal(a: usize, b: usize): bool {
  return (
    ((load<u64>(a) ^ load<u64>(b)) |
      (load<u64>(a, 8) ^ load<u64>(b, 8)) |
      (load<u64>(a, 16) ^ load<u64>(b, 16)) |
      (load<u64>(a, 24) ^ load<u64>(b, 24))) ==
    0
  )
}

/** The word's 32 bytes big-endian at `dst` (the EVM's byte order: memory, host keys and values). */
export function toBigEndian(src: usize, dst: usize): void {
  store<u64>(dst, bswap<u64>(load<u64>(src, 24)))
  store<u64>(dst, bswap<u64>(load<u64>(src, 16)), 8)
  store<u64>(dst, bswap<u64>(load<u64>(src, 8)), 16)
  store<u64>(dst, bswap<u64>(load<u64>(src)), 24)
}

/** The word from 32 bytes big-endian at `src`. */
export function fromBigEndian(src: usize, dst: usize): void {
  const l3 = bswap<u64>(load<u64>(src))
  const l2 = bswap<u64>(load<u64>(src, 8))
  const l1 = bswap<u64>(load<u64>(src, 16))
  const l0 = bswap<u64>(load<u64>(src, 24))
  store<u64>(dst, l0)
  store<u64>(dst, l1, 8)
  store<u64>(dst, l2, 16)
  store<u64>(dst, l3, 24)
}

/** Two's complement negation in place. */
export function negate(p: usize): void {
  let borrow: u64 = 0
  for (let i: usize = 0; i < 32; i += 8) {
    const x = load<u64>(p + i)
    const r = 0 - x - borrow
    borrow = u64(x != 0) | (borrow & u64(x == 0))
    store<u64>(p + i, r)
  }
}

/** The high 64 bits of the 128-bit product a * b. */
export function mulHigh(a: u64, b: u64): u64 {
  const aLo = a & 0xffffffff
  const aHi = a >> 32
  const bLo = b & 0xffffffff
  const bHi = b >> 32
  const ll = aLo * bLo
  const lh = aLo * bHi
  const hl = aHi * bLo
  const hh = aHi * bHi
  const mid = (ll >> 32) + (lh & 0xffffffff) + (hl & 0xffffffff)
  return hh + (lh >> 32) + (hl >> 32) + (mid >> 32)
}

/** out = a * b mod 2^256 (schoolbook on limbs; out may be a or b). */
export function mul(a: usize, b: usize, out: usize): void {
  const r = TMP_C
  setU64(r, 0)
  for (let i: usize = 0; i < 4; i++) {
    const ai = load<u64>(a + i * 8)
    if (ai == 0) continue
    let carry: u64 = 0
    for (let j: usize = 0; i + j < 4; j++) {
      const bj = load<u64>(b + j * 8)
      const lo = ai * bj
      let hi = mulHigh(ai, bj)
      const acc = load<u64>(r + (i + j) * 8)
      const s1 = lo + acc
      hi += u64(s1 < lo)
      const s2 = s1 + carry
      hi += u64(s2 < s1)
      store<u64>(r + (i + j) * 8, s2)
      carry = hi
    }
  }
  copyWord(out, r)
}

/**
 * Unsigned division: q = a / b and r = a % b (either may be 0 to skip it); both 0 when b is 0, as
 * the EVM defines. Fast paths for operands below 2^64 and divisors below 2^32, else Knuth's
 * algorithm D on 32-bit digits.
 */
export function divMod(a: usize, b: usize, q: usize, r: usize): void {
  if (isZero(b)) {
    if (q != 0) setU64(q, 0)
    if (r != 0) setU64(r, 0)
    return
  }
  if (lessThan(a, b)) {
    if (r != 0) copyWord(r, a)
    if (q != 0) setU64(q, 0)
    return
  }
  if (fits64(a)) {
    // b <= a < 2^64
    const x = load<u64>(a)
    const y = load<u64>(b)
    if (q != 0) setU64(q, x / y)
    if (r != 0) setU64(r, x % y)
    return
  }
  let n: usize = 8
  while (load<u32>(b + (n - 1) * 4) == 0) n--
  if (n == 1) {
    // A one-digit divisor: short division, most significant digit first.
    const d = <u64>load<u32>(b)
    let rem: u64 = 0
    for (let i: isize = 7; i >= 0; i--) {
      const cur = (rem << 32) | <u64>load<u32>(a + <usize>i * 4)
      store<u32>(DIV_Q + <usize>i * 4, <u32>(cur / d))
      rem = cur % d
    }
    if (q != 0) copyWord(q, DIV_Q)
    if (r != 0) setU64(r, rem)
    return
  }
  divKnuth(a, b, n, q, r)
}

/** Algorithm D (Knuth, TAOCP 4.3.1) for a >= b, b of n >= 2 32-bit digits. */
function divKnuth(a: usize, b: usize, n: usize, q: usize, r: usize): void {
  const base: u64 = 0x100000000
  let un: usize = 8
  while (load<u32>(a + (un - 1) * 4) == 0) un--
  const m = un - n
  // D1: normalise so that the divisor's top digit has its high bit set.
  const s = <u64>clz<u32>(load<u32>(b + (n - 1) * 4))
  for (let i = n - 1; i > 0; i--) {
    const two = ((<u64>load<u32>(b + i * 4)) << 32) | <u64>load<u32>(b + (i - 1) * 4)
    store<u32>(DIV_V + i * 4, <u32>((two << s) >> 32))
  }
  store<u32>(DIV_V, <u32>((<u64>load<u32>(b)) << s))
  store<u32>(DIV_U + un * 4, <u32>(((<u64>load<u32>(a + (un - 1) * 4)) << s) >> 32))
  for (let i = un - 1; i > 0; i--) {
    const two = ((<u64>load<u32>(a + i * 4)) << 32) | <u64>load<u32>(a + (i - 1) * 4)
    store<u32>(DIV_U + i * 4, <u32>((two << s) >> 32))
  }
  store<u32>(DIV_U, <u32>((<u64>load<u32>(a)) << s))
  setU64(DIV_Q, 0)
  const vTop = <u64>load<u32>(DIV_V + (n - 1) * 4)
  const vNext = <u64>load<u32>(DIV_V + (n - 2) * 4)
  for (let jj: isize = <isize>m; jj >= 0; jj--) {
    const j = <usize>jj
    // D3: estimate the quotient digit from the top two digits, then correct it (at most twice).
    const num = ((<u64>load<u32>(DIV_U + (j + n) * 4)) << 32) | <u64>load<u32>(DIV_U + (j + n - 1) * 4)
    let qHat = num / vTop
    let rHat = num - qHat * vTop
    while (qHat >= base || qHat * vNext > ((rHat << 32) | <u64>load<u32>(DIV_U + (j + n - 2) * 4))) {
      qHat--
      rHat += vTop
      if (rHat >= base) break
    }
    // D4: multiply and subtract.
    let k: i64 = 0
    let t: i64 = 0
    for (let i: usize = 0; i < n; i++) {
      const p = qHat * <u64>load<u32>(DIV_V + i * 4)
      t = <i64>load<u32>(DIV_U + (i + j) * 4) - k - <i64>(p & 0xffffffff)
      store<u32>(DIV_U + (i + j) * 4, <u32>t)
      k = <i64>(p >> 32) - (t >> 32)
    }
    t = <i64>load<u32>(DIV_U + (j + n) * 4) - k
    store<u32>(DIV_U + (j + n) * 4, <u32>t)
    // D5/D6: the estimate was one too large: add the divisor back.
    if (t < 0) {
      qHat--
      let c: u64 = 0
      for (let i: usize = 0; i < n; i++) {
        const sum = <u64>load<u32>(DIV_U + (i + j) * 4) + <u64>load<u32>(DIV_V + i * 4) + c
        store<u32>(DIV_U + (i + j) * 4, <u32>sum)
        c = sum >> 32
      }
      store<u32>(DIV_U + (j + n) * 4, <u32>(<u64>load<u32>(DIV_U + (j + n) * 4) + c))
    }
    store<u32>(DIV_Q + j * 4, <u32>qHat)
  }
  if (q != 0) copyWord(q, DIV_Q)
  if (r != 0) {
    // D8: unnormalise the remainder.
    setU64(TMP_B, 0)
    for (let i: usize = 0; i < n; i++) {
      const two = <u64>load<u32>(DIV_U + i * 4) | ((<u64>load<u32>(DIV_U + (i + 1) * 4)) << 32)
      store<u32>(TMP_B + i * 4, <u32>(two >> s))
    }
    copyWord(r, TMP_B)
  }
}

/** Signed division and remainder (SDIV, SMOD): the quotient truncates toward zero, the remainder takes the dividend's sign. */
export function signedDivMod(a: usize, b: usize, q: usize, r: usize): void {
  const negA = load<u64>(a, 24) >> 63 != 0
  const negB = load<u64>(b, 24) >> 63 != 0
  copyWord(TMP_A, a)
  copyWord(TMP_B, b)
  if (negA) negate(TMP_A)
  if (negB) negate(TMP_B)
  divMod(TMP_A, TMP_B, q, r)
  if (q != 0 && negA != negB) negate(q)
  if (r != 0 && negA) negate(r)
}

/** out = base ^ exponent mod 2^256, square and multiply from the exponent's top bit. */
export function exp(base: usize, exponent: usize, out: usize): void {
  copyWord(TMP_A, base)
  copyWord(TMP_B, exponent)
  const result = TMP_D
  setU64(result, 1)
  const bits = <isize>(byteLength(TMP_B) * 8)
  for (let i: isize = bits - 1; i >= 0; i--) {
    mul(result, result, result)
    const limb = load<u64>(TMP_B + (<usize>i >> 6) * 8)
    if ((limb >> (<u64>i & 63)) & 1) mul(result, TMP_A, result)
  }
  copyWord(out, result)
}

/** The exponent's length in bytes (EXP's dynamic gas): 0 for 0. */
export function byteLength(p: usize): u64 {
  for (let i: isize = 3; i >= 0; i--) {
    const limb = load<u64>(p + <usize>i * 8)
    if (limb != 0) return <u64>i * 8 + ((64 - clz<u64>(limb) + 7) >> 3)
  }
  return 0
}

/** out = value << shift for shift < 256 (SHL). */
export function shiftLeft(value: usize, shift: u32, out: usize): void {
  const limbs = <usize>(shift >> 6)
  const bits = <u64>(shift & 63)
  copyWord(TMP_A, value)
  for (let i: isize = 3; i >= 0; i--) {
    const k = <usize>i
    let v: u64 = 0
    if (k >= limbs) {
      v = load<u64>(TMP_A + (k - limbs) * 8) << bits
      if (bits != 0 && k > limbs) v |= load<u64>(TMP_A + (k - limbs - 1) * 8) >> (64 - bits)
    }
    store<u64>(out + k * 8, v)
  }
}

/** out = value >> shift for shift < 256, filled with `fill` (0, or all ones for SAR of a negative value). */
export function shiftRight(value: usize, shift: u32, fill: u64, out: usize): void {
  const limbs = <usize>(shift >> 6)
  const bits = <u64>(shift & 63)
  copyWord(TMP_A, value)
  for (let k: usize = 0; k < 4; k++) {
    let v: u64 = fill
    if (k + limbs < 4) {
      v = load<u64>(TMP_A + (k + limbs) * 8) >> bits
      const next = k + limbs + 1 < 4 ? load<u64>(TMP_A + (k + limbs + 1) * 8) : fill
      if (bits != 0) v |= next << (64 - bits)
    }
    store<u64>(out + k * 8, v)
  }
}

/** SIGNEXTEND: extends the sign of byte `b` (0 = least significant) of the word at p, in place; b < 31. */
export function signExtend(p: usize, b: u32): void {
  const bit = b * 8 + 7
  const limb = <usize>(bit >> 6)
  const within = <u64>(bit & 63)
  const word = load<u64>(p + limb * 8)
  const negative = (word >> within) & 1
  const mask: u64 = within == 63 ? 0xffffffffffffffff : ((<u64>1) << (within + 1)) - 1
  store<u64>(p + limb * 8, negative ? word | ~mask : word & mask)
  for (let k = limb + 1; k < 4; k++) store<u64>(p + k * 8, negative ? 0xffffffffffffffff : 0)
}

/**
 * out = (a + b) mod m, the sum taken in full (257 bits); 0 when m is 0 (ADDMOD). out may be an operand.
 */
export function addMod(a: usize, b: usize, m: usize, out: usize): void {
  if (isZero(m)) {
    setU64(out, 0)
    return
  }
  let carry: u64 = 0
  for (let i: usize = 0; i < 32; i += 8) {
    const x = load<u64>(a + i)
    const s = x + load<u64>(b + i)
    const r = s + carry
    carry = u64(s < x) | u64(r < s)
    store<u64>(WIDE_N + i, r)
  }
  if (carry == 0) {
    divMod(WIDE_N, m, 0, out)
    return
  }
  store<u64>(WIDE_N + 32, carry)
  wideMod(9, m, out)
}

/** out = (a * b) mod m, the product taken in full (512 bits); 0 when m is 0 (MULMOD). out may be an operand. */
export function mulMod(a: usize, b: usize, m: usize, out: usize): void {
  if (isZero(m)) {
    setU64(out, 0)
    return
  }
  memory.fill(WIDE_N, 0, 64)
  for (let i: usize = 0; i < 4; i++) {
    const ai = load<u64>(a + i * 8)
    if (ai == 0) continue
    let carry: u64 = 0
    for (let j: usize = 0; j < 4; j++) {
      const bj = load<u64>(b + j * 8)
      const lo = ai * bj
      let hi = mulHigh(ai, bj)
      const at = WIDE_N + (i + j) * 8
      const s1 = lo + load<u64>(at)
      hi += u64(s1 < lo)
      const s2 = s1 + carry
      hi += u64(s2 < s1)
      store<u64>(at, s2)
      carry = hi
    }
    store<u64>(WIDE_N + (i + 4) * 8, carry)
  }
  if ((load<u64>(WIDE_N, 32) | load<u64>(WIDE_N, 40) | load<u64>(WIDE_N, 48) | load<u64>(WIDE_N, 56)) == 0) {
    divMod(WIDE_N, m, 0, out)
    return
  }
  wideMod(16, m, out)
}

/**
 * out = the number of `digits` 32-bit digits at WIDE_N (above 2^256) mod the word m (not 0): Knuth's
 * algorithm D keeping only the remainder, on WIDE_U (the dividend, normalised) and WIDE_V (the divisor).
 */
function wideMod(digits: usize, m: usize, out: usize): void {
  let un = digits
  while (un > 0 && load<u32>(WIDE_N + (un - 1) * 4) == 0) un--
  let n: usize = 8
  while (load<u32>(m + (n - 1) * 4) == 0) n--
  if (n == 1) {
    const d = <u64>load<u32>(m)
    let rem: u64 = 0
    for (let i: isize = <isize>un - 1; i >= 0; i--) rem = ((rem << 32) | <u64>load<u32>(WIDE_N + <usize>i * 4)) % d
    setU64(out, rem)
    return
  }
  // un > 8 >= n here: the dividend is above 2^256, so above the divisor.
  const base: u64 = 0x100000000
  const s = <u64>clz<u32>(load<u32>(m + (n - 1) * 4))
  for (let i = n - 1; i > 0; i--) {
    const two = ((<u64>load<u32>(m + i * 4)) << 32) | <u64>load<u32>(m + (i - 1) * 4)
    store<u32>(WIDE_V + i * 4, <u32>((two << s) >> 32))
  }
  store<u32>(WIDE_V, <u32>((<u64>load<u32>(m)) << s))
  store<u32>(WIDE_U + un * 4, <u32>(((<u64>load<u32>(WIDE_N + (un - 1) * 4)) << s) >> 32))
  for (let i = un - 1; i > 0; i--) {
    const two = ((<u64>load<u32>(WIDE_N + i * 4)) << 32) | <u64>load<u32>(WIDE_N + (i - 1) * 4)
    store<u32>(WIDE_U + i * 4, <u32>((two << s) >> 32))
  }
  store<u32>(WIDE_U, <u32>((<u64>load<u32>(WIDE_N)) << s))
  const vTop = <u64>load<u32>(WIDE_V + (n - 1) * 4)
  const vNext = <u64>load<u32>(WIDE_V + (n - 2) * 4)
  for (let jj: isize = <isize>(un - n); jj >= 0; jj--) {
    const j = <usize>jj
    const num = ((<u64>load<u32>(WIDE_U + (j + n) * 4)) << 32) | <u64>load<u32>(WIDE_U + (j + n - 1) * 4)
    let qHat = num / vTop
    let rHat = num - qHat * vTop
    while (qHat >= base || qHat * vNext > ((rHat << 32) | <u64>load<u32>(WIDE_U + (j + n - 2) * 4))) {
      qHat--
      rHat += vTop
      if (rHat >= base) break
    }
    let k: i64 = 0
    let t: i64 = 0
    for (let i: usize = 0; i < n; i++) {
      const p = qHat * <u64>load<u32>(WIDE_V + i * 4)
      t = <i64>load<u32>(WIDE_U + (i + j) * 4) - k - <i64>(p & 0xffffffff)
      store<u32>(WIDE_U + (i + j) * 4, <u32>t)
      k = <i64>(p >> 32) - (t >> 32)
    }
    t = <i64>load<u32>(WIDE_U + (j + n) * 4) - k
    store<u32>(WIDE_U + (j + n) * 4, <u32>t)
    if (t < 0) {
      let c: u64 = 0
      for (let i: usize = 0; i < n; i++) {
        const sum = <u64>load<u32>(WIDE_U + (i + j) * 4) + <u64>load<u32>(WIDE_V + i * 4) + c
        store<u32>(WIDE_U + (i + j) * 4, <u32>sum)
        c = sum >> 32
      }
      store<u32>(WIDE_U + (j + n) * 4, <u32>(<u64>load<u32>(WIDE_U + (j + n) * 4) + c))
    }
  }
  // Unnormalise the remainder (the low n digits).
  setU64(out, 0)
  for (let i: usize = 0; i < n; i++) {
    const two = <u64>load<u32>(WIDE_U + i * 4) | ((<u64>load<u32>(WIDE_U + (i + 1) * 4)) << 32)
    store<u32>(out + i * 4, <u32>(two >> s))
  }
}
