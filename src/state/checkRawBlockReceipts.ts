import type { ReceiptOutcome } from '../chain/receiptOutcomes.js'

/** loadBlock's raw block as a persistent tier keeps it: the upstream's block JSON and its receipt summaries. */
export type StoredRawBlock = {
  json: Record<string, unknown>
  receipts?: { transactionHash: string; gasUsed: string; status?: string }[]
}

const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]{0,63})$/

/**
 * A raw block read from a shared tier, its receipt summaries (each transaction's gas used and
 * status, which a replay is checked against) held up to the block's receipts, verified against its
 * header's receiptsRoot (`outcomes`, see receiptOutcomes):
 *
 * - with them, every summary must say what its receipt says (a status is dropped where the receipt
 *   has a state root instead, before Byzantium, and taken from the receipt where the summary has none): the block comes back with its summaries, or
 *   `undefined` when one differs (a poisoned entry, to be rejected);
 * - without them (no receipts kept for the block, or none that verified), the summaries cannot be
 *   checked: the block comes back without them, so that its reader asks the upstream for the receipts.
 *
 * The block's transactions and header are checked where it is used (loadBlock, fetchVerifiedBlock);
 * a summary's transaction hash there too, against the transaction's.
 */
export function checkRawBlockReceipts(
  raw: StoredRawBlock,
  outcomes: readonly ReceiptOutcome[] | undefined,
): StoredRawBlock | undefined {
  if (!outcomes) return { json: raw.json }
  const summaries = raw.receipts
  if (!Array.isArray(summaries) || summaries.length !== outcomes.length) return undefined
  const checked: NonNullable<StoredRawBlock['receipts']> = []
  for (const [i, s] of summaries.entries()) {
    const outcome = outcomes[i]!
    if (typeof s !== 'object' || s === null || typeof s.transactionHash !== 'string') return undefined
    if (typeof s.gasUsed !== 'string' || !QUANTITY.test(s.gasUsed) || BigInt(s.gasUsed) !== outcome.gasUsed)
      return undefined
    if (outcome.status === undefined) {
      checked.push({ transactionHash: s.transactionHash, gasUsed: s.gasUsed })
      continue
    }
    // A summary without a status (an upstream that left it out) gets the receipt's.
    if (
      s.status !== undefined &&
      (typeof s.status !== 'string' || !QUANTITY.test(s.status) || BigInt(s.status) !== outcome.status)
    )
      return undefined
    checked.push({ transactionHash: s.transactionHash, gasUsed: s.gasUsed, status: `0x${outcome.status.toString(16)}` })
  }
  return { json: raw.json, receipts: checked }
}
