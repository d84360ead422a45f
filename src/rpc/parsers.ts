import { ParamError } from './params.js'
import type { Hex } from '../types/hex.js'

const HEX = /^0x[0-9a-fA-F]*$/

/**
 * A hex string of exactly `bytes` bytes (address: 20, hash: 32), lowercased. Errors use geth's words
 * (Go's JSON decoding into common.Address / common.Hash), e.g. "json: cannot unmarshal hex string
 * without 0x prefix into Go value of type common.Hash".
 */
export function parseFixedHex(bytes: number, goType: string) {
  return (raw: unknown): Hex => {
    if (typeof raw !== 'string')
      throw new ParamError(`json: cannot unmarshal ${jsonKind(raw)} into Go value of type ${goType}`)
    if (!/^0[xX]/.test(raw))
      throw new ParamError(`json: cannot unmarshal hex string without 0x prefix into Go value of type ${goType}`)
    if (!HEX.test(`0x${raw.slice(2)}`))
      throw new ParamError(`json: cannot unmarshal invalid hex string into Go value of type ${goType}`)
    if (raw.length % 2 !== 0)
      throw new ParamError(`json: cannot unmarshal hex string of odd length into Go value of type ${goType}`)
    if (raw.length !== 2 + bytes * 2)
      throw new ParamError(`hex string has length ${raw.length - 2}, want ${bytes * 2} for ${goType}`)
    return raw.toLowerCase() as Hex
  }
}

/** How Go's JSON decoder names a JSON value's kind in its errors. */
function jsonKind(raw: unknown): string {
  if (raw === null || raw === undefined) return 'null'
  if (Array.isArray(raw)) return 'array'
  if (typeof raw === 'object') return 'object'
  return typeof raw
}

export const parseAddress = parseFixedHex(20, 'common.Address')
export const parseHash = parseFixedHex(32, 'common.Hash')

/** 0x-prefixed hex bytes of even length. */
export function parseData(raw: unknown): Hex {
  if (typeof raw !== 'string' || !HEX.test(raw) || raw.length % 2 !== 0) {
    throw new ParamError(`expected hex-encoded bytes (0x-prefixed, even length), got ${describe(raw)}`)
  }
  return raw.toLowerCase() as Hex
}

/** hexutil.Big / Uint64: 0x-prefixed, no leading zeros (geth is strict about that). */
export function parseQuantity(raw: unknown): bigint {
  if (typeof raw !== 'string' || !/^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/.test(raw)) {
    throw new ParamError(`expected a hex quantity (0x-prefixed, no leading zeros), got ${describe(raw)}`)
  }
  if (raw.length > 66) throw new ParamError('hex number > 256 bits')
  return BigInt(raw)
}

/** A quantity that must fit in uint64 (gas, nonce). */
export function parseUint64(raw: unknown): bigint {
  const value = parseQuantity(raw)
  if (value >= 2n ** 64n) throw new ParamError('hex number > 64 bits')
  return value
}

/** A plain JSON object (not an array). */
export function parseObject(raw: unknown, what: string): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ParamError(`expected ${what} object, got ${describe(raw)}`)
  }
  return raw as Record<string, unknown>
}

export function describe(raw: unknown): string {
  if (raw === undefined) return 'nothing'
  if (raw === null) return 'null'
  if (typeof raw === 'string') return raw.length > 80 ? `string "${raw.slice(0, 80)}…"` : `string "${raw}"`
  if (Array.isArray(raw)) return 'an array'
  return typeof raw === 'object' ? 'an object' : `${typeof raw} ${String(raw)}`
}

/** A JSON boolean. */
export function parseBool(raw: unknown): boolean {
  if (typeof raw !== 'boolean') throw new ParamError('expected a boolean')
  return raw
}
