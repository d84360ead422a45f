/** How many items the verified state source has proven since start (a proof answer may carry several). */
export type VerificationCounts = {
  /** Accounts checked against a block's state root (eth_getProof's accountProof). */
  accountProofs: number
  /** Storage slots checked against an account's storage root. */
  storageProofs: number
  /** Contract codes checked against their code hash. */
  codes: number
}

export const newVerificationCounts = (): VerificationCounts => ({ accountProofs: 0, storageProofs: 0, codes: 0 })
