import { bls12_381 } from '@noble/curves/bls12-381.js'

/** The Ethereum consensus layer's BLS ciphersuite: signatures in G2, proof-of-possession scheme. */
const DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_'
const bls = bls12_381.longSignatures

type G1Point = ReturnType<typeof bls12_381.G1.Point.fromBytes>

/**
 * Keys decompressed once (the check of a point's subgroup is most of a signature check's time): a
 * committee's keys are the same byte arrays update after update, for a whole period.
 */
const decompressed = new WeakMap<Uint8Array, G1Point>()
function pointOf(key: Uint8Array): G1Point {
  let point = decompressed.get(key)
  if (!point) {
    point = bls12_381.G1.Point.fromBytes(key)
    decompressed.set(key, point)
  }
  return point
}

/**
 * bls.FastAggregateVerify: whether `signature` (96 bytes, compressed G2) is the aggregate of the
 * signatures of `pubkeys` (48 bytes each, compressed G1) over `message`. A key or signature that is
 * not a valid point of its subgroup is not valid; no signer is not valid.
 */
export function verifySyncCommitteeSignature(
  pubkeys: readonly Uint8Array[],
  message: Uint8Array,
  signature: Uint8Array,
): boolean {
  if (pubkeys.length === 0) return false
  try {
    const points = pubkeys.map(pointOf)
    // KeyValidate: the point at infinity is no key (fromBytes checks the curve and the subgroup).
    if (points.some((point) => point.is0())) return false
    const aggregate = bls.aggregatePublicKeys(points)
    return bls.verify(signature, bls.hash(message, DST), aggregate)
  } catch {
    return false
  }
}
