import type { Hex } from '../../types/hex.js'
import type { VerifiedHeader } from '../parseHeader.js'
import { recoverBorAuthor } from './borSeal.js'
import type { BorRules } from './createBorRules.js'

/**
 * The validator that sealed a Bor header, as a snapshot walk checks it (bor's ecrecover): its seal's
 * key over the seal hash of the block's rules (the base fee sealed from Jaipur on). Throws
 * BorExtraDataError, in bor's words, where the seal does not recover.
 */
export function borHeaderSigner(header: VerifiedHeader, rules: BorRules): Hex {
  return recoverBorAuthor(header.header, rules.isJaipur(header.number))
}
