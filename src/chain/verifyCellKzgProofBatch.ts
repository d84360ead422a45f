import { bls12_381 } from '@noble/curves/bls12-381.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { pippenger } from '@noble/curves/abstract/curve.js'
import {
  CELLS_PER_EXT_BLOB,
  FIELD_ELEMENTS_PER_BLOB,
  FIELD_ELEMENTS_PER_CELL,
  Fr,
  KzgBadArgsError,
  bitReversalPermutation,
  blobToPolynomial,
  fft,
  fieldFromBytes,
  fieldToBytes,
  hashToField,
  reverseBits,
  rootsOfUnity,
  uintBytes,
} from './kzgField.js'
import { G1_MONOMIAL_64_HEX, TAU64_G2_HEX } from './kzgSetupPoints.js'
import { type G1Point, g1FromBytes, g2Precompute, minusG2Precompute, pairingProductIsOne } from './verifyKzgProof.js'

const { G1 } = bls12_381
const EXT = 2 * FIELD_ELEMENTS_PER_BLOB
const CELL_BYTES = FIELD_ELEMENTS_PER_CELL * 32
const RANDOM_CHALLENGE_KZG_CELL_BATCH_DOMAIN = new TextEncoder().encode('RCKZGCBATCH__V1_')

/** A cell: its 64 evaluations over its coset, as field elements. */
export type CosetEvals = bigint[]

/**
 * compute_cells (EIP-7594): the blob's polynomial in coefficient form (an inverse FFT of its
 * evaluations), evaluated over the 8192 roots of unity (the Reed–Solomon extension), in bit-reversed
 * order and cut into 128 cells of 64.
 */
export function computeCells(blob: Uint8Array): CosetEvals[] {
  const coeffs = fft(bitReversalPermutation(blobToPolynomial(blob)), rootsOfUnity(FIELD_ELEMENTS_PER_BLOB), true)
  const extended = bitReversalPermutation(
    fft([...coeffs, ...new Array<bigint>(FIELD_ELEMENTS_PER_BLOB).fill(0n)], rootsOfUnity(EXT)),
  )
  const cells: CosetEvals[] = []
  for (let k = 0; k < CELLS_PER_EXT_BLOB; k++)
    cells.push(extended.slice(k * FIELD_ELEMENTS_PER_CELL, (k + 1) * FIELD_ELEMENTS_PER_CELL))
  return cells
}

/** cell_to_coset_evals: a 2048-byte cell read as 64 canonical field elements. */
export function cellFromBytes(cell: Uint8Array): CosetEvals {
  if (cell.length !== CELL_BYTES) throw new KzgBadArgsError(`a cell must be ${CELL_BYTES} bytes`)
  const evals: CosetEvals = []
  for (let i = 0; i < FIELD_ELEMENTS_PER_CELL; i++) evals.push(fieldFromBytes(cell, i * 32, `cell field element ${i}`))
  return evals
}

/** coset_shift_for_cell: h with the cell's coset h·⟨g⟩ (g a primitive 64th root of unity). */
const cosetShift = (cellIndex: number) => rootsOfUnity(EXT)[reverseBits(cellIndex, CELLS_PER_EXT_BLOB)]!

/**
 * The interpolation polynomial of one cell, in coefficient form. Its coset is h·g^rev(i) for the
 * cell's i-th element, so in natural order its evaluations are the bit-reversed cell; an inverse FFT
 * over ⟨g⟩ gives J with J(x) = I(h·x), and I's coefficients are J's divided by powers of h.
 */
function interpolateCell(cellIndex: number, evals: CosetEvals): bigint[] {
  const j = fft(bitReversalPermutation(evals), rootsOfUnity(FIELD_ELEMENTS_PER_CELL), true)
  const hInverse = Fr.inv(cosetShift(cellIndex))
  let power = 1n
  return j.map((coefficient) => {
    const out = Fr.mul(coefficient, power)
    power = Fr.mul(power, hInverse)
    return out
  })
}

/** Σ scalars[i]·points[i] (variable time: everything here is public). */
function msm(points: readonly G1Point[], scalars: readonly bigint[]): G1Point {
  const ps: G1Point[] = []
  const ss: bigint[] = []
  points.forEach((point, i) => {
    if (scalars[i] !== 0n && !point.is0()) {
      ps.push(point)
      ss.push(scalars[i]!)
    }
  })
  return ps.length === 0 ? G1.Point.ZERO : pippenger(G1.Point, ps, ss)
}

let setup: { g1Monomial: G1Point[]; tau64G2: ReturnType<typeof g2Precompute> } | undefined

/**
 * verify_cell_kzg_proof_batch (EIP-7594, the universal verification equation): the cells, each
 * with its index and proof, are evaluations of the polynomials their commitments commit to.
 * One random linear combination (the challenge hashes every input) and one two-term pairing check.
 * False when it does not verify; KzgBadArgsError when an input is malformed.
 */
export function verifyCellKzgProofBatch(
  commitments: readonly Uint8Array[],
  cellIndices: readonly number[],
  cells: readonly CosetEvals[],
  proofs: readonly Uint8Array[],
): boolean {
  const n = cellIndices.length
  if (commitments.length !== n || cells.length !== n || proofs.length !== n)
    throw new KzgBadArgsError('commitments, cell indices, cells and proofs must be as many')
  if (n === 0) return true
  for (const index of cellIndices)
    if (!Number.isInteger(index) || index < 0 || index >= CELLS_PER_EXT_BLOB)
      throw new KzgBadArgsError(`cell index ${index} is not below ${CELLS_PER_EXT_BLOB}`)
  // The commitments without repeats, in first-seen order, and each cell's place among them.
  const unique: Uint8Array[] = []
  const seen = new Map<string, number>()
  const commitmentIndices = commitments.map((c) => {
    const key = bytesToHex(c)
    let at = seen.get(key)
    if (at === undefined) {
      at = unique.length
      seen.set(key, at)
      unique.push(c)
    }
    return at
  })
  const commitmentPoints = unique.map((c, i) => g1FromBytes(c, `commitment ${i}`))
  const proofPoints = proofs.map((p, i) => g1FromBytes(p, `proof ${i}`))

  // Step 1: the challenge r, from everything that can influence the check.
  const hashInput = new Uint8Array(16 + 32 + unique.length * 48 + n * (16 + CELL_BYTES + 48))
  let at = 0
  const put = (bytes: Uint8Array) => {
    hashInput.set(bytes, at)
    at += bytes.length
  }
  put(RANDOM_CHALLENGE_KZG_CELL_BATCH_DOMAIN)
  put(uintBytes(FIELD_ELEMENTS_PER_BLOB, 8))
  put(uintBytes(FIELD_ELEMENTS_PER_CELL, 8))
  put(uintBytes(unique.length, 8))
  put(uintBytes(n, 8))
  for (const c of unique) put(c)
  for (let k = 0; k < n; k++) {
    put(uintBytes(commitmentIndices[k]!, 8))
    put(uintBytes(cellIndices[k]!, 8))
    for (const value of cells[k]!) {
      fieldToBytes(value, hashInput, at)
      at += 32
    }
    put(proofs[k]!)
  }
  const r = hashToField(hashInput)
  const rPowers: bigint[] = [1n]
  for (let k = 1; k < n; k++) rPowers.push(Fr.mul(rPowers[k - 1]!, r))

  setup ??= {
    g1Monomial: G1_MONOMIAL_64_HEX.map((hex) => G1.Point.fromHex(hex)),
    tau64G2: g2Precompute(TAU64_G2_HEX),
  }
  // Step 2: LL = Σ r^k·proof_k.
  const ll = msm(proofPoints, rPowers)
  // Step 4.1: RLC = Σ_i weight_i·commitment_i, weight_i the sum of r^k over commitment i's cells.
  const weights = unique.map(() => 0n)
  for (let k = 0; k < n; k++) weights[commitmentIndices[k]!] = Fr.add(weights[commitmentIndices[k]!]!, rPowers[k]!)
  const rlc = msm(commitmentPoints, weights)
  // Step 4.2: RLI = [Σ r^k·I_k(τ)], the cells' interpolation polynomials combined, then committed.
  const sum = new Array<bigint>(FIELD_ELEMENTS_PER_CELL).fill(0n)
  for (let k = 0; k < n; k++) {
    const coefficients = interpolateCell(cellIndices[k]!, cells[k]!)
    for (let j = 0; j < FIELD_ELEMENTS_PER_CELL; j++) sum[j] = Fr.add(sum[j]!, Fr.mul(rPowers[k]!, coefficients[j]!))
  }
  const rli = msm(setup.g1Monomial, sum)
  // Step 4.3: RLP = Σ r^k·h_k^64·proof_k.
  const shifted = cellIndices.map((index, k) =>
    Fr.mul(rPowers[k]!, Fr.pow(cosetShift(index), BigInt(FIELD_ELEMENTS_PER_CELL))),
  )
  const rlp = msm(proofPoints, shifted)
  const rl = rlc.subtract(rli).add(rlp)
  // Step 5: e(LL, [τ^64]G2) = e(RL, G2).
  return pairingProductIsOne([
    [ll, setup.tau64G2],
    [rl, minusG2Precompute()],
  ])
}

/**
 * Every cell proof of a version-1 blob sidecar (geth's VerifyCellProofs): each blob's 128 cells
 * computed from the blob, proof k·128 + i for blob k's cell i, all in one batch.
 */
export function verifyBlobCellProofs(
  blobs: readonly Uint8Array[],
  commitments: readonly Uint8Array[],
  proofs: readonly Uint8Array[],
): boolean {
  if (blobs.length !== commitments.length || proofs.length !== blobs.length * CELLS_PER_EXT_BLOB)
    throw new KzgBadArgsError('a blob needs one commitment and 128 cell proofs')
  const cells: CosetEvals[] = []
  const indices: number[] = []
  const cellCommitments: Uint8Array[] = []
  blobs.forEach((blob, k) => {
    computeCells(blob).forEach((cell, i) => {
      cells.push(cell)
      indices.push(i)
      cellCommitments.push(commitments[k]!)
    })
  })
  return verifyCellKzgProofBatch(cellCommitments, indices, cells, proofs)
}
