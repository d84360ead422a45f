import { BaseError } from '../../errors/base.js'
import type { Hex } from '../../types/hex.js'
import type { VerifiedHeader } from '../parseHeader.js'
import { borHeaderSigner } from './borHeaderSigner.js'
import { borValidatorBytes } from './borSeal.js'
import {
  type BorValidatorSet,
  copyValidatorSet,
  incrementProposerPriority,
  parseValidatorBytes,
  signerSuccession,
  updatedValidatorSet,
} from './borValidatorSet.js'
import type { BorRules } from './createBorRules.js'

/** The validator set in force after a block (bor's Snapshot, without the sealing bookkeeping). */
export type BorSnapshot = { number: bigint; hash: Hex; validatorSet: BorValidatorSet }

export class BorSnapshotError extends BaseError {
  override name = 'BorSnapshotError'
}

/**
 * The snapshot after `headers` (verified, consecutive, from the block after the snapshot's): each
 * header's signer must be in the set (bor's words otherwise); on a sprint's last block the set becomes
 * the one its validator bytes name (powers updated, new validators joined, those not named removed)
 * and the proposer moves on once — bor's Snapshot.apply. `signers` are signers recovered elsewhere
 * (a range worker's), by block hash: a header whose own hash is there takes that signer instead of
 * recovering it here (borHeaderSigner); every other header's is recovered here.
 */
export function applyBorHeaders(
  snapshot: BorSnapshot,
  headers: readonly VerifiedHeader[],
  rules: BorRules,
  signers?: ReadonlyMap<Hex, Hex>,
): BorSnapshot {
  if (headers.length === 0) return snapshot
  for (let i = 0; i < headers.length; i++) {
    const expected = (i === 0 ? snapshot.number : headers[i - 1]!.number) + 1n
    if (headers[i]!.number !== expected) throw new BorSnapshotError('out of range or non-contiguous chain')
  }
  let set = copyValidatorSet(snapshot.validatorSet)
  for (const verified of headers) {
    const { header, number } = verified
    const signer = signers?.get(verified.hash) ?? borHeaderSigner(verified, rules)
    if (!set.validators.some((v) => v.address === signer)) {
      throw new BorSnapshotError(`Signer ${signer} is not a part of the producer set at block ${number}`)
    }
    if (signerSuccession(set, signer) === undefined) {
      throw new BorSnapshotError(
        `Proposer ${set.proposer?.address} is not a part of the producer set at block ${number}`,
      )
    }
    const sprint = rules.sprintSize(number)
    if (number > 0n && (number + 1n) % sprint === 0n) {
      const bytes = borValidatorBytes(header.extraData, rules.isNapoli(number)) ?? new Uint8Array(0)
      set = updatedValidatorSet(set, parseValidatorBytes(bytes))
      incrementProposerPriority(set, 1)
    }
  }
  const last = headers.at(-1)!
  return { number: last.number, hash: last.hash, validatorSet: set }
}
