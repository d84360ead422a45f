import type { KZG } from '@ethereumjs/util'

/**
 * ethereumjs needs a KZG object to decode blob transactions at all, though a block carries only the
 * blobs' versioned hashes and replay never touches a blob. edgetrace ships no KZG trusted setup
 * yet, so every KZG operation — in practice only the point-evaluation precompile (0x0a) — fails
 * with this error instead of returning a wrong answer.
 */
function unavailable(): never {
  throw new Error('KZG is not available in this build: the point-evaluation precompile (0x0a) cannot be executed')
}

export const unavailableKzg: KZG = {
  blobToKzgCommitment: unavailable,
  computeBlobProof: unavailable,
  verifyProof: unavailable,
  verifyBlobProofBatch: unavailable,
  computeCells: unavailable,
  computeCellsAndProofs: unavailable,
  recoverCellsAndProofs: unavailable,
  verifyCellKzgProofBatch: unavailable,
}
