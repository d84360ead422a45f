// Analysed code: a record per contract code, made once and kept by the host under the code's hash.
// Record: a 32-byte header (code length u32, bitmap offset u32), the code, 33 zero bytes (so that
// PUSH32 at the very end reads zeros and the byte after the code is a STOP: the dispatch loop needs
// no end-of-code test), then the jump-destination bitmap (bit i set: a JUMPDEST at pc i that is not
// PUSH data).

import { alloc } from './layout'

export const CODE_HEADER: usize = 32
const CODE_PAD: usize = 33

/** Allocates a record for `length` bytes of code; the host writes the code at record + CODE_HEADER, then calls analyseCode. */
export function allocCode(length: u32): usize {
  const bitmapOffset = (CODE_HEADER + <usize>length + CODE_PAD + 7) & ~(<usize>7)
  const bitmapBytes = ((<usize>length + 7) >> 3) + 8
  const rec = alloc(bitmapOffset + bitmapBytes)
  store<u32>(rec, length)
  store<u32>(rec, <u32>bitmapOffset, 4)
  memory.fill(rec + CODE_HEADER + <usize>length, 0, CODE_PAD)
  memory.fill(rec + bitmapOffset, 0, bitmapBytes)
  return rec
}

/** Builds the record's jump-destination bitmap. */
export function analyseCode(rec: usize): void {
  const length = <usize>load<u32>(rec)
  const code = rec + CODE_HEADER
  const bitmap = rec + <usize>load<u32>(rec, 4)
  let pc: usize = 0
  while (pc < length) {
    const op = load<u8>(code + pc)
    if (op == 0x5b) {
      const at = bitmap + (pc >> 3)
      const bit: u32 = 1 << <u32>(pc & 7)
      store<u8>(at, load<u8>(at) | <u8>bit)
      pc++
    } else if (op >= 0x60 && op <= 0x7f) pc += <usize>op - 0x5e
    else pc++
  }
}

export function codeLength(rec: usize): u32 {
  return load<u32>(rec)
}
