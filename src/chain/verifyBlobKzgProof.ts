import {
  FIELD_ELEMENTS_PER_BLOB,
  Fr,
  bitReversalPermutation,
  blobToPolynomial,
  hashToField,
  rootsOfUnity,
  uintBytes,
} from './kzgField.js'
import { g1FromBytes, verifyKzgProofImpl } from './verifyKzgProof.js'

const FIAT_SHAMIR_PROTOCOL_DOMAIN = new TextEncoder().encode('FSBLOBVERIFY_V1_')

/** compute_challenge: the Fiat–Shamir evaluation point of a blob and its commitment. */
export function computeChallenge(blob: Uint8Array, commitment: Uint8Array): bigint {
  const data = new Uint8Array(16 + 16 + blob.length + commitment.length)
  data.set(FIAT_SHAMIR_PROTOCOL_DOMAIN, 0)
  data.set(uintBytes(FIELD_ELEMENTS_PER_BLOB, 16), 16)
  data.set(blob, 32)
  data.set(commitment, 32 + blob.length)
  return hashToField(data)
}

let domain: bigint[] | undefined

/**
 * evaluate_polynomial_in_evaluation_form: the blob's polynomial at z, by the barycentric formula over
 * the bit-reversed roots of unity (one batched inversion instead of 4096).
 */
export function evaluateInEvaluationForm(poly: readonly bigint[], z: bigint): bigint {
  domain ??= bitReversalPermutation(rootsOfUnity(FIELD_ELEMENTS_PER_BLOB))
  const at = domain.indexOf(z)
  if (at >= 0) return poly[at]!
  const inverses = Fr.invertBatch(domain.map((root) => Fr.sub(z, root)))
  let sum = 0n
  for (let i = 0; i < FIELD_ELEMENTS_PER_BLOB; i++)
    sum = Fr.add(sum, Fr.mul(Fr.mul(poly[i]!, domain[i]!), inverses[i]!))
  const width = BigInt(FIELD_ELEMENTS_PER_BLOB)
  return Fr.mul(Fr.mul(sum, Fr.sub(Fr.pow(z, width), 1n)), Fr.inv(width))
}

/**
 * verify_blob_kzg_proof (EIP-4844, a version-0 blob sidecar): the proof shows that the blob's
 * polynomial, evaluated at the challenge computed from the blob and the commitment, is what the
 * commitment commits to there. False when it does not verify; KzgBadArgsError when the blob,
 * commitment or proof is malformed.
 */
export function verifyBlobKzgProof(blob: Uint8Array, commitment: Uint8Array, proof: Uint8Array): boolean {
  const poly = blobToPolynomial(blob)
  const c = g1FromBytes(commitment, 'commitment')
  const pi = g1FromBytes(proof, 'proof')
  const z = computeChallenge(blob, commitment)
  return verifyKzgProofImpl(c, z, evaluateInEvaluationForm(poly, z), pi)
}
