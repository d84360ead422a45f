import { keccak256 } from '../utils/keccak256.js'

/**
 * keccak256 of a slot number as a 32-byte word: where a dynamic array's elements and a long
 * `bytes`/`string`'s bytes start (Solidity's storage layout).
 */
export function dataSlot(slot: bigint): bigint {
  const word = new Uint8Array(32)
  for (let i = 31, v = slot; i >= 0; i--, v >>= 8n) word[i] = Number(v & 0xffn)
  let out = 0n
  for (const b of keccak256(word)) out = (out << 8n) | BigInt(b)
  return out
}
