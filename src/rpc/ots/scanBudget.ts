import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Touching } from './touchingTransactions.js'

/** A block in which the searched address was found, with its touching transactions. */
export type HitBlock = { header: VerifiedHeader; hits: Touching[] }

/**
 * How many blocks one search may still replay (--ots.search.maxblocks), shared by all its scans;
 * `what` says in the error what the scanning was for.
 */
export type ScanBudget = { left: bigint; readonly limit: bigint; readonly from: bigint; readonly what: string }

export function scanBudget(limit: number, from: bigint, what: string): ScanBudget {
  return { left: BigInt(limit), limit: BigInt(limit), from, what }
}
