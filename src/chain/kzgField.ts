import { bls12_381 } from '@noble/curves/bls12-381.js'
import { sha256 } from '@noble/hashes/sha2.js'

/** BLS12-381's scalar field, where blobs' field elements live (the specs' BLS_MODULUS is its order). */
export const Fr = bls12_381.fields.Fr
export const BLS_MODULUS = Fr.ORDER

export const FIELD_ELEMENTS_PER_BLOB = 4096
export const BYTES_PER_BLOB = FIELD_ELEMENTS_PER_BLOB * 32
export const FIELD_ELEMENTS_PER_CELL = 64
export const CELLS_PER_EXT_BLOB = 128

/**
 * The input is not a valid commitment, proof, blob or field element. The message carries
 * C_KZG_BADARGS because that is how @ethereumjs/evm's 0x0a tells bad inputs (its INVALID_INPUTS)
 * from a proof that does not verify (INVALID_PROOF), as with c-kzg.
 */
export class KzgBadArgsError extends Error {
  override name = 'KzgBadArgsError'
  constructor(what: string) {
    super(`C_KZG_BADARGS: ${what}`)
  }
}

/** bytes_to_bls_field: a canonical big-endian scalar, below BLS_MODULUS (never reduced). */
export function fieldFromBytes(bytes: Uint8Array, offset: number, what: string): bigint {
  let value = 0n
  for (let i = offset; i < offset + 32; i++) value = (value << 8n) | BigInt(bytes[i]!)
  if (value >= BLS_MODULUS) throw new KzgBadArgsError(`${what} is not below BLS_MODULUS`)
  return value
}

/** bls_field_to_bytes: 32 bytes, big-endian. */
export function fieldToBytes(value: bigint, out: Uint8Array, offset: number): void {
  let v = value
  for (let i = offset + 31; i >= offset; i--) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
}

/** blob_to_polynomial: a blob's 4096 field elements (its evaluations over the bit-reversed roots of unity). */
export function blobToPolynomial(blob: Uint8Array): bigint[] {
  if (blob.length !== BYTES_PER_BLOB) throw new KzgBadArgsError(`a blob must be ${BYTES_PER_BLOB} bytes`)
  const poly = new Array<bigint>(FIELD_ELEMENTS_PER_BLOB)
  for (let i = 0; i < FIELD_ELEMENTS_PER_BLOB; i++) poly[i] = fieldFromBytes(blob, i * 32, `blob field element ${i}`)
  return poly
}

/** hash_to_bls_field: sha256, read big-endian, reduced. */
export function hashToField(data: Uint8Array): bigint {
  const digest = sha256(data)
  let value = 0n
  for (const byte of digest) value = (value << 8n) | BigInt(byte)
  return value % BLS_MODULUS
}

/** A big-endian unsigned integer of `length` bytes (the specs' int.to_bytes(n, length, KZG_ENDIANNESS)). */
export function uintBytes(n: number, length: number): Uint8Array {
  const out = new Uint8Array(length)
  let v = BigInt(n)
  for (let i = length - 1; i >= 0 && v > 0n; i--) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return out
}

const roots = new Map<number, bigint[]>()

/** compute_roots_of_unity(order): the powers of 7^((BLS_MODULUS − 1) / order), in natural order (cached). */
export function rootsOfUnity(order: number): bigint[] {
  let list = roots.get(order)
  if (!list) {
    const root = Fr.pow(7n, (BLS_MODULUS - 1n) / BigInt(order))
    list = new Array<bigint>(order)
    list[0] = 1n
    for (let i = 1; i < order; i++) list[i] = Fr.mul(list[i - 1]!, root)
    roots.set(order, list)
  }
  return list
}

/** reverse_bits(n, order): n's log2(order) low bits in reverse order. */
export function reverseBits(n: number, order: number): number {
  let out = 0
  for (let bit = 1, v = n; bit < order; bit <<= 1, v >>= 1) out = (out << 1) | (v & 1)
  return out
}

/** bit_reversal_permutation: element i moves to reverse_bits(i). */
export function bitReversalPermutation<T>(list: readonly T[]): T[] {
  return list.map((_, i) => list[reverseBits(i, list.length)]!)
}

/**
 * fft_field: the evaluations of the polynomial with coefficients `values` at `rootsOfUnity`
 * (`inverse`: the coefficients of the polynomial with those evaluations). Iterative radix-2.
 */
export function fft(values: readonly bigint[], rootsOfUnityList: readonly bigint[], inverse = false): bigint[] {
  const n = values.length
  const rootsList = inverse ? [rootsOfUnityList[0]!, ...rootsOfUnityList.slice(1).reverse()] : rootsOfUnityList
  const a = bitReversalPermutation(values)
  for (let size = 2; size <= n; size <<= 1) {
    const half = size >> 1
    const step = n / size
    for (let start = 0; start < n; start += size) {
      for (let j = 0; j < half; j++) {
        const u = a[start + j]!
        const v = Fr.mul(a[start + j + half]!, rootsList[j * step]!)
        a[start + j] = Fr.add(u, v)
        a[start + j + half] = Fr.sub(u, v)
      }
    }
  }
  if (!inverse) return a
  const invN = Fr.inv(BigInt(n))
  return a.map((x) => Fr.mul(x, invN))
}
