import { bls12_381 } from '@noble/curves/bls12-381.js'
import { KzgBadArgsError, fieldFromBytes } from './kzgField.js'
import { TAU_G2_HEX } from './kzgSetupPoints.js'

export { BLS_MODULUS, KzgBadArgsError } from './kzgField.js'

/**
 * A G2 point's Miller-loop line coefficients: the constant G2 points of the checks get theirs on
 * first use (the worker pays nothing until a transaction calls 0x0a), then reused.
 */
type Precompute = ReturnType<typeof bls12_381.utils.calcPairingPrecomputes>

const { G1, G2 } = bls12_381
export type G1Point = ReturnType<typeof G1.Point.fromBytes>

function bytesOf(hex: string, length: number, what: string): Uint8Array {
  const digits = hex.startsWith('0x') ? hex.slice(2) : hex
  if (digits.length !== length * 2 || !/^[0-9a-fA-F]*$/.test(digits)) {
    throw new KzgBadArgsError(`${what} must be ${length} bytes`)
  }
  const bytes = new Uint8Array(length)
  for (let i = 0; i < length; i++) bytes[i] = Number.parseInt(digits.slice(2 * i, 2 * i + 2), 16)
  return bytes
}

/**
 * validate_kzg_g1 / bytes_to_kzg_commitment: a compressed G1 point (ZCash flags; the identity only
 * as 0xc0 followed by zeros), x below the base-field modulus, on the curve and in the r-torsion
 * subgroup. noble's G1 decoder and assertValidity check exactly these.
 */
export function g1FromBytes(bytes: Uint8Array, what: string): G1Point {
  if (bytes.length !== 48) throw new KzgBadArgsError(`${what} must be 48 bytes`)
  if ((bytes[0]! & 0x80) === 0) throw new KzgBadArgsError(`${what} is not a compressed G1 point`)
  try {
    const point = G1.Point.fromBytes(bytes)
    point.assertValidity()
    return point
  } catch (err) {
    throw new KzgBadArgsError(`${what} is not a valid G1 point (${(err as Error).message})`)
  }
}

/** Whether e(a₁, b₁) · e(a₂, b₂) · … = 1, the G2 sides given by their line coefficients. */
export function pairingProductIsOne(terms: readonly (readonly [G1Point, Precompute])[]): boolean {
  // A pairing with the identity is 1: such a term is left out of the product.
  const lines: [Precompute, bigint, bigint][] = []
  for (const [g1, g2] of terms) {
    if (g1.is0()) continue
    const { x, y } = g1.toAffine()
    lines.push([g2, x, y])
  }
  const { Fp12 } = bls12_381.fields
  return Fp12.eql(Fp12.finalExponentiate(bls12_381.millerLoopBatch(lines)), Fp12.ONE)
}

/** A G2 point's Miller-loop line coefficients. */
export const g2Precompute = (hex: string): Precompute => bls12_381.utils.calcPairingPrecomputes(G2.Point.fromHex(hex))

/** −G2's line coefficients (computed once). */
let minusG2: Precompute | undefined
export const minusG2Precompute = (): Precompute =>
  (minusG2 ??= bls12_381.utils.calcPairingPrecomputes(G2.Point.BASE.negate()))

let tauG2: Precompute | undefined

/**
 * verify_kzg_proof_impl of the consensus specs (polynomial-commitments.md): the proof shows that the
 * polynomial committed to evaluates to y at z, i.e. e(C − [y]G1, −G2) · e(π, [τ]G2 − [z]G2) = 1.
 * Moving z to the G1 side (e(π, −[z]G2) = e([z]π, −G2)) gives the same product as
 * e(C − [y]G1 + [z]π, −G2) · e(π, [τ]G2), whose G2 points are constants: their line coefficients are
 * computed once, and each call costs two G1 multiplications and one two-term pairing check.
 */
export function verifyKzgProofImpl(commitment: G1Point, z: bigint, y: bigint, proof: G1Point): boolean {
  tauG2 ??= g2Precompute(TAU_G2_HEX)
  // The inputs are public: the variable-time multiplication is fine, and it also accepts 0.
  const lhs = commitment.subtract(G1.Point.BASE.multiplyUnsafe(y)).add(proof.multiplyUnsafe(z))
  return pairingProductIsOne([
    [lhs, minusG2Precompute()],
    [proof, tauG2],
  ])
}

/**
 * verify_kzg_proof, as the point-evaluation precompile (0x0a) asks it: arguments are 0x-prefixed hex
 * as @ethereumjs/evm passes them. Returns false when the proof does not verify; throws
 * KzgBadArgsError when an argument is malformed (as c-kzg does).
 */
export function verifyKzgProof(commitment: string, z: string, y: string, proof: string): boolean {
  const c = g1FromBytes(bytesOf(commitment, 48, 'commitment'), 'commitment')
  const zValue = fieldFromBytes(bytesOf(z, 32, 'z'), 0, 'z')
  const yValue = fieldFromBytes(bytesOf(y, 32, 'y'), 0, 'y')
  const pi = g1FromBytes(bytesOf(proof, 48, 'proof'), 'proof')
  return verifyKzgProofImpl(c, zValue, yValue, pi)
}
