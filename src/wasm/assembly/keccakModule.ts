// A module of its own holding only Keccak-256 (keccak.ts): the product's hash (src/utils/keccak256.ts),
// small enough to be compiled synchronously wherever the project runs (Node, a Web Worker, a page)
// and to ship inside the JavaScript (src/utils/keccakWasmBytes.ts, written by scripts/buildKeccakWasm.ts).
// The input is written by the host at input(length); hash(length) leaves the 32 bytes at its answer.

import { keccak, keccakInit } from './keccak'

keccakInit()

/** Where the input goes: the heap's start (the fixed areas of layout.ts lie below it). */
const INPUT: usize = (__heap_base + 15) & ~(<usize>15)

/** Where the host writes `length` bytes to hash, memory grown to hold them. */
export function input(length: u32): usize {
  const pages = <i32>((INPUT + <usize>length + 0xffff) >>> 16)
  const have = memory.size()
  if (pages > have && memory.grow(pages - have) < 0) unreachable()
  return INPUT
}

/** Keccak-256 of the `length` bytes at input(length): where its 32 bytes are. */
export function hash(length: u32): usize {
  return keccak(INPUT, <usize>length)
}
