/** An eth_getProof answer (EIP-1186) as the upstream sent it: nothing in it is trusted yet. */
export type ProofAnswer = {
  address: string
  balance: string
  nonce: string
  codeHash: string
  storageHash: string
  accountProof: string[]
  storageProof: { key: string; value: string; proof: string[] }[]
}

/**
 * Checks the answer has the shape the verification walks (the address and both proof lists); the
 * fields it claims are checked against the proofs later, not here.
 */
export function parseProofAnswer(raw: unknown): ProofAnswer {
  const p = raw as ProofAnswer
  if (
    typeof p !== 'object' ||
    p === null ||
    !Array.isArray(p.accountProof) ||
    !Array.isArray(p.storageProof) ||
    typeof p.address !== 'string'
  ) {
    throw new Error('eth_getProof answer is malformed')
  }
  return p
}
