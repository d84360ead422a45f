import { RLP } from '@ethereumjs/rlp'
import { Account, KECCAK256_NULL, KECCAK256_RLP, bytesToBigInt, bytesToHex, hexToBytes } from '@ethereumjs/util'
import { ProofVerificationError, type StateLocation } from '../errors/state.js'
import type { ProofAnswer } from './parseProofAnswer.js'
import { proofRoots } from './proofRoots.js'
import { sameQuantity } from './sameQuantity.js'
import { verifyProof } from './verifyProof.js'
import type { Hex } from '../types/hex.js'

function sameBytes32(hex: unknown, value: Uint8Array): boolean {
  return typeof hex === 'string' && hex.toLowerCase() === bytesToHex(value)
}

/**
 * The account an eth_getProof answer proves against `stateRoot`, or undefined when it proves the
 * account absent. The answer must be for `where.address` (lowercase), and every field it claims
 * must be what the proof proves (for an absent account: the empty fields, or zeros as some nodes
 * send) — an upstream is never believed on a field the proof does not back.
 */
export async function verifyAccountProof(
  stateRoot: Uint8Array,
  proof: ProofAnswer,
  where: StateLocation & { address: Hex },
): Promise<Account | undefined> {
  if (proof.address.toLowerCase() !== where.address) {
    throw new ProofVerificationError(`eth_getProof answered for ${proof.address}`, where)
  }
  let leaf: Uint8Array | null
  try {
    leaf = await verifyProof(stateRoot, hexToBytes(where.address), proof.accountProof)
  } catch (err) {
    const facts = { ...where, ...proofRoots(stateRoot, err) }
    throw new ProofVerificationError('account proof does not verify against the stateRoot', facts, { cause: err })
  }
  if (leaf === null) {
    const claimsEmpty =
      sameQuantity(proof.balance, 0n) &&
      sameQuantity(proof.nonce, 0n) &&
      (sameBytes32(proof.storageHash, KECCAK256_RLP) || /^0x0*$/.test(proof.storageHash)) &&
      (sameBytes32(proof.codeHash, KECCAK256_NULL) || /^0x0*$/.test(proof.codeHash))
    if (!claimsEmpty)
      throw new ProofVerificationError('account is proven absent, but the upstream claims fields for it', where)
    return undefined
  }
  const fields = RLP.decode(leaf) as Uint8Array[]
  if (!Array.isArray(fields) || fields.length !== 4)
    throw new ProofVerificationError('account leaf is malformed', where)
  const account = new Account(bytesToBigInt(fields[0]!), bytesToBigInt(fields[1]!), fields[2]!, fields[3]!)
  if (
    !sameQuantity(proof.nonce, account.nonce) ||
    !sameQuantity(proof.balance, account.balance) ||
    !sameBytes32(proof.storageHash, account.storageRoot) ||
    !sameBytes32(proof.codeHash, account.codeHash)
  ) {
    throw new ProofVerificationError('account fields differ from what the proof proves', where)
  }
  return account
}
