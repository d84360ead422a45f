import { hexToBytes } from '@noble/hashes/utils.js'
import { describe, expect, it } from 'vitest'
import { KzgBadArgsError, fieldToBytes } from '../../src/chain/kzgField.js'
import { verifyBlobKzgProof } from '../../src/chain/verifyBlobKzgProof.js'
import {
  cellFromBytes,
  computeCells,
  verifyBlobCellProofs,
  verifyCellKzgProofBatch,
} from '../../src/chain/verifyCellKzgProofBatch.js'
import { readKzgCase, readKzgCases } from '../src/kzgVectors.js'

// Blob sidecars' KZG proofs (EIP-4844 version 0, EIP-7594 version 1 cell proofs), checked by the
// pool before it keeps or forwards a blob transaction: the consensus-spec reference tests vendored
// from c-kzg-4844 (test/fixtures/c-kzg-4844/SOURCE.txt), every case, outputs as recorded.

const bytes = (hex: string) => hexToBytes(hex.slice(2))

/** Runs `fn`; null when it throws KzgBadArgsError (the spec's "raises"), its answer otherwise. */
function outcome(fn: () => boolean): boolean | null {
  try {
    return fn()
  } catch (err) {
    if (err instanceof KzgBadArgsError) return null
    throw err
  }
}

const cellBytes = (cell: bigint[]) => {
  const out = new Uint8Array(cell.length * 32)
  cell.forEach((v, i) => {
    fieldToBytes(v, out, i * 32)
  })
  return out
}
const toHex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`

describe('verify_blob_kzg_proof (c-kzg-4844 reference tests)', () => {
  const cases = readKzgCases('verify_blob_kzg_proof')
  it('has the 29 cases', () => expect(cases).toHaveLength(29))
  for (const c of cases)
    it(c.name, () => {
      const { blob, commitment, proof } = c.input as Record<string, string>
      expect(outcome(() => verifyBlobKzgProof(bytes(blob!), bytes(commitment!), bytes(proof!)))).toBe(c.output)
    })
})

describe('verify_cell_kzg_proof_batch (c-kzg-4844 reference tests)', () => {
  const cases = readKzgCases('verify_cell_kzg_proof_batch')
  it('has the 32 cases', () => expect(cases).toHaveLength(32))
  for (const c of cases)
    it(c.name, () => {
      const input = c.input as { commitments: string[]; cell_indices: number[]; cells: string[]; proofs: string[] }
      const result = outcome(() => {
        if (input.cells.length !== input.cell_indices.length) throw new KzgBadArgsError('cells and indices differ')
        return verifyCellKzgProofBatch(
          input.commitments.map(bytes),
          input.cell_indices,
          input.cells.map((cell) => cellFromBytes(bytes(cell))),
          input.proofs.map(bytes),
        )
      })
      expect(result).toBe(c.output)
    })
})

describe('compute_cells (c-kzg-4844 reference tests)', () => {
  for (const c of readKzgCases('compute_cells'))
    it(c.name, () => {
      const blob = bytes(c.input.blob as string)
      if (c.output === null) {
        expect(() => computeCells(blob)).toThrow(KzgBadArgsError)
        return
      }
      expect(computeCells(blob).map((cell) => toHex(cellBytes(cell)))).toEqual(c.output)
    })
})

describe("a version-1 sidecar's 128 cell proofs (geth's VerifyCellProofs)", () => {
  const cells = readKzgCase('compute_cells_and_kzg_proofs/kzg-mainnet/compute_cells_and_kzg_proofs_case_valid_3')
  const commitment = readKzgCase('blob_to_kzg_commitment/kzg-mainnet/blob_to_kzg_commitment_case_valid_blob_3')
  const blob = bytes(cells.input.blob as string)
  const proofs = (cells.output as string[][])[1]!.map(bytes)
  const c = bytes(commitment.output as string)
  it('verifies the blob with its commitment and proofs', () => {
    expect(commitment.input.blob).toBe(cells.input.blob)
    expect(verifyBlobCellProofs([blob], [c], proofs)).toBe(true)
  })
  it('fails when two proofs trade places, a blob byte changes, or a proof is missing', () => {
    const swapped = [...proofs]
    ;[swapped[0], swapped[1]] = [swapped[1]!, swapped[0]!]
    expect(verifyBlobCellProofs([blob], [c], swapped)).toBe(false)
    const changed = Uint8Array.from(blob)
    changed[100] = changed[100]! ^ 1
    expect(verifyBlobCellProofs([changed], [c], proofs)).toBe(false)
    expect(() => verifyBlobCellProofs([blob], [c], proofs.slice(1))).toThrow(KzgBadArgsError)
  })
})
