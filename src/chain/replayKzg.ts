import type { KZG } from '@ethereumjs/util'
import { verifyKzgProof } from './verifyKzgProof.js'

/**
 * ethereumjs needs a KZG object to decode blob transactions at all, though a block carries only the
 * blobs' versioned hashes. Replay needs one KZG operation: verifyProof, for the point-evaluation
 * precompile (0x0a), which blob-carrying rollups call in every batch. The others work on whole blobs
 * (commitments, blob proofs, cells), which replay never sees, and would need the full trusted setup:
 * they fail with a clear error rather than returning a wrong answer.
 */
function unavailable(): never {
  throw new Error('KZG blob operations are not available in edgetrace: only point evaluation (0x0a) is')
}

export const replayKzg: KZG = {
  blobToKzgCommitment: unavailable,
  computeBlobProof: unavailable,
  verifyProof: verifyKzgProof,
  verifyBlobProofBatch: unavailable,
  computeCells: unavailable,
  computeCellsAndProofs: unavailable,
  recoverCellsAndProofs: unavailable,
  verifyCellKzgProofBatch: unavailable,
}
