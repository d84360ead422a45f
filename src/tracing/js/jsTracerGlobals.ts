import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToHex, concatBytes, setLengthLeft } from '@ethereumjs/util'
import { keccak256 } from '../../utils/keccak256.js'
import bigInt from 'big-integer'
import type { Hex } from '../../types/hex.js'

// The values geth hands a JavaScript tracer and the globals it gives it (eth/tracers/js): byte
// strings as Uint8Array, big numbers as BigInteger.js values (`bigInt`), the rest as numbers.

/** A host helper's error: it ends the tracer's hook whatever the tracer catches (geth interrupts its VM). */
export class JsTracerInterrupt extends Error {
  override name = 'Error'
}

/**
 * A big number as geth gives it: a BigInteger.js value (toString, arithmetic, toJSON as a decimal
 * string). Made from the bigint itself: BigInteger.js keeps a native BigInt (as it does for the
 * decimal text, which it parsed back into one).
 */
export const toBig = (value: bigint) => bigInt(value)

/**
 * BigInteger.js writes a value held as a native BigInt in a base other than 10 a digit at a time (a
 * division and a number conversion per digit: most of the time of a tracer that reads the stack as
 * hex, measured). For the bases 2–36 with its own digits (0-9, a-z, a `-` for a negative number) the
 * engine's toString writes the same text; other bases and alphabets go its own way. Set on its
 * prototype once, before any tracer's realm is hardened.
 */
function speedUpBaseStrings() {
  const proto = Object.getPrototypeOf(bigInt(1n)) as {
    value?: unknown
    toString(this: { value: unknown }, radix?: unknown, alphabet?: unknown): string
  }
  const own = proto.toString
  if (typeof (bigInt(1n) as unknown as { value: unknown }).value !== 'bigint') return
  proto.toString = function engineBaseString(this: { value: unknown }, radix?: unknown, alphabet?: unknown): string {
    if (
      alphabet === undefined &&
      typeof radix === 'number' &&
      Number.isInteger(radix) &&
      radix >= 2 &&
      radix <= 36 &&
      typeof this.value === 'bigint'
    )
      return this.value.toString(radix)
    return own.call(this, radix, alphabet)
  }
}
speedUpBaseStrings()

/** geth's FromHex: an optional 0x, a leading 0 for odd length, decoding stopping at the first non-hex pair. */
function fromHexLenient(text: string): Uint8Array {
  let hex = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text
  if (hex.length % 2 === 1) hex = `0${hex}`
  const out: number[] = []
  for (let i = 0; i < hex.length; i += 2) {
    const byte = Number.parseInt(hex.slice(i, i + 2), 16)
    if (!/^[0-9a-fA-F]{2}$/.test(hex.slice(i, i + 2))) break
    out.push(byte)
  }
  return Uint8Array.from(out)
}

/**
 * A buffer argument as geth takes it: a Uint8Array, an Array of numbers (each mod 256), or — where
 * strings are allowed — a hex string; anything else is `invalid buffer type`.
 */
export function fromBuf(value: unknown, allowString: boolean, interrupt: Interrupt = throwing): Uint8Array {
  if (value === undefined || value === null) throw new TypeError('Cannot convert undefined or null to object')
  if (value instanceof Uint8Array && value.constructor === Uint8Array) return value
  if (Array.isArray(value)) {
    return Uint8Array.from(value, (v) => {
      const n = Math.trunc(Number(v))
      return Number.isNaN(n) ? 0 : ((n % 256) + 256) % 256
    })
  }
  if (allowString && typeof value === 'string') return fromHexLenient(value)
  return interrupt(new JsTracerInterrupt('invalid buffer type'))
}

/** Ends the running hook with a host error (recorded, so that a tracer's catch cannot swallow it). */
export type Interrupt = (err: JsTracerInterrupt) => never
const throwing: Interrupt = (err) => {
  throw err
}

/** The last `length` bytes, left-padded with zeros (geth's BytesToAddress / BytesToHash). */
export const rightAligned = (bytes: Uint8Array, length: number) =>
  bytes.length >= length ? bytes.slice(bytes.length - length) : setLengthLeft(bytes, length)

/** The globals a tracer sees, for a transaction whose active precompiles are `precompiles`. */
export function jsTracerGlobals(
  precompiles: () => ReadonlySet<string>,
  interrupt: Interrupt = throwing,
): Record<string, unknown> {
  const buf = (value: unknown, allowString: boolean) => fromBuf(value, allowString, interrupt)
  return {
    bigInt,
    toHex: (value: unknown) => bytesToHex(buf(value, false)),
    toWord: (value: unknown) => rightAligned(buf(value, true), 32),
    toAddress: (value: unknown) => rightAligned(buf(value, true), 20),
    toContract(from: unknown, nonce: unknown) {
      const address = rightAligned(buf(from, true), 20)
      const n = BigInt(Math.max(0, Math.trunc(Number(nonce ?? 0)) || 0))
      return keccak256(RLP.encode([address, bigIntToUnpaddedBytes(n)])).slice(12)
    },
    toContract2(from: unknown, salt: unknown, initcode: unknown) {
      const address = rightAligned(buf(from, true), 20)
      const saltBytes = rightAligned(fromHexLenient(String(salt)), 32)
      const code = buf(initcode, true)
      return keccak256(concatBytes(Uint8Array.of(0xff), address, saltBytes, keccak256(code))).slice(12)
    },
    isPrecompiled: (addr: unknown) =>
      precompiles().has(bytesToHex(rightAligned(buf(addr, true), 20)).toLowerCase() as Hex),
    slice(value: unknown, start: unknown, end: unknown) {
      const bytes = buf(value, false)
      const s = Math.trunc(Number(start ?? 0)) || 0
      const e = Math.trunc(Number(end ?? 0)) || 0
      if (s < 0 || s > e || e > bytes.length) {
        return interrupt(
          new JsTracerInterrupt(
            `Tracer accessed out of bound memory: available ${bytes.length}, offset ${s}, size ${e - s}`,
          ),
        )
      }
      return bytes.slice(s, e)
    },
  }
}
