import { bytesOfWord } from '../utils/bytesOfWord.js'
import { keccak256 } from '../utils/keccak256.js'

/**
 * keccak256 of a slot number as a 32-byte word: where a dynamic array's elements and a long
 * `bytes`/`string`'s bytes start (Solidity's storage layout).
 */
export function dataSlot(slot: bigint): bigint {
  let out = 0n
  for (const b of keccak256(bytesOfWord(slot))) out = (out << 8n) | BigInt(b)
  return out
}
