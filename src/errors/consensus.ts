import { BaseErrorWithData } from './base.js'

/** What part of a light-client update or bootstrap failed its check. */
export type LightClientCheck =
  | 'signature'
  | 'participation'
  | 'finality branch'
  | 'next sync committee branch'
  | 'current sync committee branch'
  | 'execution branch'
  | 'fork'
  | 'period'
  | 'slots'
  | 'trusted root'
  | 'shape'

/**
 * A light-client bootstrap or update that does not verify (the consensus specs' sync protocol):
 * which check failed, and at which slots. Nothing of it reaches the store.
 */
export class LightClientVerificationError extends BaseErrorWithData<{
  check: LightClientCheck
  attestedSlot?: string
  signatureSlot?: string
}> {
  override name = 'LightClientVerificationError'
  readonly check: LightClientCheck

  constructor(check: LightClientCheck, message: string, slots: { attested?: number; signature?: number } = {}) {
    super(`light client: ${check} does not verify: ${message}`, {
      check,
      ...(slots.attested !== undefined ? { attestedSlot: `0x${slots.attested.toString(16)}` } : {}),
      ...(slots.signature !== undefined ? { signatureSlot: `0x${slots.signature.toString(16)}` } : {}),
    })
    this.check = check
  }
}

/**
 * A checkpoint older than the weak-subjectivity bound: validators that have left since could have
 * signed another chain from there, which a light client starting from it could not tell apart.
 */
export class CheckpointTooOldError extends BaseErrorWithData<{ checkpoint: string; slot: string; ageSeconds: number }> {
  override name = 'CheckpointTooOldError'
}
