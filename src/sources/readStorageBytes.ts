import { bytesOfWord } from '../utils/bytesOfWord.js'
import { dataSlot } from './dataSlot.js'

const WORD = (1n << 256n) - 1n
/** Longest long `bytes`/`string` value read whole (when all its data slots are known); longer ones by length. */
export const MAX_LONG_BYTES = 1024n

/** A `bytes`/`string` read from storage: its text when all of it is known, else only its length in bytes. */
export type StorageBytes = { text: string; length: bigint } | { text: undefined; length: bigint }

/** `string` bytes as quoted text (JSON), `bytes` (or anything else) as 0x-hex. */
function bytesText(label: string, bytes: Uint8Array): string {
  if (label === 'string') return JSON.stringify(new TextDecoder().decode(bytes))
  let s = '0x'
  for (const b of bytes) s += b.toString(16).padStart(2, '0')
  return s
}

/**
 * A `bytes` or `string` (`label`) variable's value from the word of its slot, as Solidity stores it:
 * a short one (under 32 bytes) inline, its length × 2 in the low byte and its bytes left-aligned; a
 * long one's word is length × 2 + 1, its bytes 32 a slot from keccak256(slot) ({@link dataSlot}),
 * each of those slots' word from `wordAt` (undefined: not known). The text when the value is short or
 * every data slot it needs is known (and it is at most {@link MAX_LONG_BYTES}); else only the length,
 * never part of the value. Undefined for a word no `bytes`/`string` is stored as (an inline length
 * over 31).
 */
export function readStorageBytes(
  label: string,
  slot: bigint,
  word: bigint,
  wordAt: (slot: bigint) => bigint | undefined,
): StorageBytes | undefined {
  if ((word & 1n) === 0n) {
    const length = Number((word & 0xffn) / 2n)
    if (length > 31) return undefined
    return { text: bytesText(label, bytesOfWord(word).subarray(0, length)), length: BigInt(length) }
  }
  const length = (word - 1n) / 2n
  if (length === 0n || length > MAX_LONG_BYTES) return { text: undefined, length }
  const base = dataSlot(slot)
  const out = new Uint8Array(Number(length))
  for (let i = 0; i < out.length; i += 32) {
    const chunk = wordAt((base + BigInt(i / 32)) & WORD)
    if (chunk === undefined) return { text: undefined, length }
    out.set(bytesOfWord(chunk).subarray(0, Math.min(32, out.length - i)), i)
  }
  return { text: bytesText(label, out), length }
}
