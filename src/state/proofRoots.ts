import { bytesToHex } from '@ethereumjs/util'
import { ProofRootMismatchError } from '../errors/state.js'

/**
 * The roots of a proof that did not verify, for the error's data: the one it had to lead from and,
 * when the failure was that it leads from another, that one.
 */
export function proofRoots(expected: Uint8Array, err: unknown) {
  return {
    expectedRoot: bytesToHex(expected),
    gotRoot: err instanceof ProofRootMismatchError ? err.gotRoot : undefined,
  }
}
