import { ParamError } from '../params.js'
import type { Hex } from '../../types/hex.js'

/** A storage key as geth reads it, with the length it was given in (32 bytes or shorter). */
export type StorageKey = { slot: Hex; inputLength: number }

/**
 * geth's DecodeStorageKey: lenient for legacy reasons — the 0x prefix is optional, an odd number of
 * digits gets a leading zero, and a key shorter than 32 bytes is left-padded. Longer is refused.
 */
export function parseStorageKey(raw: unknown): StorageKey {
  if (typeof raw !== 'string') throw new ParamError('json: cannot unmarshal non-string into Go value of type string')
  let digits = /^0[xX]/.test(raw) ? raw.slice(2) : raw
  if (digits.length % 2 === 1) digits = `0${digits}`
  if (digits.length > 64) throw new ParamError('storage key too long (want at most 32 bytes)')
  if (!/^[0-9a-fA-F]*$/.test(digits)) throw new ParamError('invalid hex in storage key')
  return { slot: `0x${digits.toLowerCase().padStart(64, '0')}` as Hex, inputLength: digits.length / 2 }
}
