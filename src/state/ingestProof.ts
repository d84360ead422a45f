import { type Account, KECCAK256_RLP } from '@ethereumjs/util'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import { ProofVerificationError } from '../errors/state.js'
import type { ProvenCache } from './createProvenCache.js'
import { parseProofAnswer } from './parseProofAnswer.js'
import { verifyAccountProof } from './verifyAccountProof.js'
import { verifyStorageProof } from './verifyStorageProof.js'
import type { Hex } from '../types/hex.js'
import type { VerificationCounts } from '../types/verificationCounts.js'

/**
 * Verifies an eth_getProof answer against the block — the account against its stateRoot, each
 * slot asked for (32-byte hex, in the order asked) against the account's storageRoot — and caches
 * each item as soon as it is proven. Returns the account (undefined when proven absent) and the
 * slots' values.
 */
export async function ingestProof(
  proven: ProvenCache,
  block: VerifiedHeader,
  raw: unknown,
  asked: { address: string; slots: readonly string[] },
  counts?: VerificationCounts,
): Promise<{ account: Account | undefined; values: Uint8Array[] }> {
  const proof = parseProofAnswer(raw)
  const address = asked.address.toLowerCase() as Hex
  const where = { block: { number: block.number, hash: block.hash }, address }
  const account = await verifyAccountProof(block.header.stateRoot, proof, where)
  proven.setAccount(block, address, account)
  proven.persistTrieNodes(proof.accountProof)
  if (counts) counts.accountProofs++

  if (proof.storageProof.length !== asked.slots.length) {
    const got = proof.storageProof.length
    throw new ProofVerificationError(`asked for ${asked.slots.length} slots, got ${got} storage proofs`, where)
  }
  const storageRoot = account?.storageRoot ?? KECCAK256_RLP
  const values: Uint8Array[] = []
  for (let i = 0; i < asked.slots.length; i++) {
    const slot = asked.slots[i]!
    const value = await verifyStorageProof(storageRoot, proof.storageProof[i]!, { ...where, slot })
    proven.setSlot(storageRoot, slot, value)
    proven.persistTrieNodes(proof.storageProof[i]!.proof)
    if (counts) counts.storageProofs++
    values.push(value)
  }
  return { account, values }
}
