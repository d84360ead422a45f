import { bls12_381 } from '@noble/curves/bls12-381.js'

/** The order of BLS12-381's scalar field (the spec's BLS_MODULUS): field elements z and y must be below it. */
export const BLS_MODULUS = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n

/**
 * [τ]G2, the one trusted-setup value point evaluation needs: g2_monomial[1] of the Ethereum KZG
 * ceremony, the second G2 line (line 4100) of src/trusted_setup.txt in ethereum/c-kzg-4844
 * (commit b7e4098813e02c866d8def4e88524be8a6bedc7f; the file last changed in 37140215cd6f).
 */
const TAU_G2_HEX =
  'b5bfd7dd8cdeb128843bc287230af38926187075cbfbefa81009a2ce615ac53d2914e5870cb452d2afaaab24f3499f72185cbfee53492714734429b7b38608e23926c911cceceac9a36851477ba4c60b087041de621000edc98edada20c1def2'

const { G1, G2 } = bls12_381
type G1Point = ReturnType<typeof G1.Point.fromBytes>

/**
 * The two G2 points of the check, with their Miller-loop line coefficients: computed on first use
 * (the worker pays nothing until a transaction calls 0x0a), then reused for every verification.
 */
let pairingG2: { minusG2: Precompute; tauG2: Precompute } | undefined
type Precompute = ReturnType<typeof bls12_381.utils.calcPairingPrecomputes>

/**
 * The input is not a valid commitment, proof or field element. The message carries C_KZG_BADARGS
 * because that is how @ethereumjs/evm's 0x0a tells bad inputs (its INVALID_INPUTS) from a proof
 * that does not verify (INVALID_PROOF), as with c-kzg.
 */
export class KzgBadArgsError extends Error {
  override name = 'KzgBadArgsError'
  constructor(what: string) {
    super(`C_KZG_BADARGS: ${what}`)
  }
}

function bytesOf(hex: string, length: number, what: string): Uint8Array {
  const digits = hex.startsWith('0x') ? hex.slice(2) : hex
  if (digits.length !== length * 2 || !/^[0-9a-fA-F]*$/.test(digits)) {
    throw new KzgBadArgsError(`${what} must be ${length} bytes`)
  }
  const bytes = new Uint8Array(length)
  for (let i = 0; i < length; i++) bytes[i] = Number.parseInt(digits.slice(2 * i, 2 * i + 2), 16)
  return bytes
}

/** bytes_to_bls_field: a canonical big-endian scalar, below BLS_MODULUS (never reduced). */
function fieldElement(hex: string, what: string): bigint {
  bytesOf(hex, 32, what)
  const value = BigInt(hex.startsWith('0x') ? hex : `0x${hex}`)
  if (value >= BLS_MODULUS) throw new KzgBadArgsError(`${what} is not below BLS_MODULUS`)
  return value
}

/**
 * validate_kzg_g1 / bytes_to_kzg_commitment: a compressed G1 point (ZCash flags; the identity only
 * as 0xc0 followed by zeros), x below the base-field modulus, on the curve and in the r-torsion
 * subgroup. noble's G1 decoder and assertValidity check exactly these.
 */
function g1Point(hex: string, what: string): G1Point {
  const bytes = bytesOf(hex, 48, what)
  if ((bytes[0]! & 0x80) === 0) throw new KzgBadArgsError(`${what} is not a compressed G1 point`)
  try {
    const point = G1.Point.fromBytes(bytes)
    point.assertValidity()
    return point
  } catch (err) {
    throw new KzgBadArgsError(`${what} is not a valid G1 point (${(err as Error).message})`)
  }
}

/**
 * verify_kzg_proof of the consensus specs (polynomial-commitments.md): the proof shows that the
 * polynomial committed to evaluates to y at z, i.e. e(C − [y]G1, −G2) · e(π, [τ]G2 − [z]G2) = 1.
 * Moving z to the G1 side (e(π, −[z]G2) = e([z]π, −G2)) gives the same product as
 * e(C − [y]G1 + [z]π, −G2) · e(π, [τ]G2), whose G2 points are constants: their line coefficients are
 * computed once, and each call costs two G1 multiplications and one two-term pairing check.
 * Arguments are 0x-prefixed hex as @ethereumjs/evm's 0x0a passes them. Returns false when the proof
 * does not verify; throws KzgBadArgsError when an argument is malformed (as c-kzg does).
 */
export function verifyKzgProof(commitment: string, z: string, y: string, proof: string): boolean {
  const c = g1Point(commitment, 'commitment')
  const zValue = fieldElement(z, 'z')
  const yValue = fieldElement(y, 'y')
  const pi = g1Point(proof, 'proof')
  pairingG2 ??= {
    minusG2: bls12_381.utils.calcPairingPrecomputes(G2.Point.BASE.negate()),
    tauG2: bls12_381.utils.calcPairingPrecomputes(G2.Point.fromHex(TAU_G2_HEX)),
  }
  // The inputs are public: the variable-time multiplication is fine, and it also accepts 0.
  const lhs = c.subtract(G1.Point.BASE.multiplyUnsafe(yValue)).add(pi.multiplyUnsafe(zValue))
  // A pairing with the identity is 1: such a term is left out of the product.
  const terms: [Precompute, bigint, bigint][] = []
  for (const [g1, g2] of [
    [lhs, pairingG2.minusG2],
    [pi, pairingG2.tauG2],
  ] as const) {
    if (g1.is0()) continue
    const { x, y: py } = g1.toAffine()
    terms.push([g2, x, py])
  }
  const { Fp12 } = bls12_381.fields
  return Fp12.eql(Fp12.finalExponentiate(bls12_381.millerLoopBatch(terms)), Fp12.ONE)
}
