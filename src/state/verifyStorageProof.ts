import { bytesToBigInt, hexToBytes } from '@ethereumjs/util'
import { ProofVerificationError, type StateLocation } from '../errors/state.js'
import type { ProofAnswer } from './parseProofAnswer.js'
import { proofRoots } from './proofRoots.js'
import { sameQuantity } from './sameQuantity.js'
import { decodeStorageLeaf, verifyProof } from './verifyProof.js'
import type { Hex } from '../types/hex.js'

/**
 * The value of `where.slot` (32-byte hex) that one storage proof of an eth_getProof answer proves
 * against the account's `storageRoot`, without leading zeros (empty when zero or absent). The value
 * the upstream claims beside the proof must be that value.
 */
export async function verifyStorageProof(
  storageRoot: Uint8Array,
  entry: ProofAnswer['storageProof'][number] | undefined,
  where: StateLocation & { slot: string },
): Promise<Uint8Array> {
  let value: Uint8Array
  try {
    if (!Array.isArray(entry?.proof)) throw new Error('storage proof missing')
    value = decodeStorageLeaf(await verifyProof(storageRoot, hexToBytes(where.slot as Hex), entry.proof))
  } catch (err) {
    const facts = { ...where, ...proofRoots(storageRoot, err) }
    throw new ProofVerificationError('storage proof does not verify against the storageRoot', facts, { cause: err })
  }
  if (!sameQuantity(entry.value, bytesToBigInt(value))) {
    throw new ProofVerificationError('storage value differs from what the proof proves', where)
  }
  return value
}
