import { RLP } from '@ethereumjs/rlp'
import { bytesToBigInt } from '@ethereumjs/util'

/** What one receipt says of its transaction: the gas it used, and its status (undefined before Byzantium: a state root instead). */
export type ReceiptOutcome = { gasUsed: bigint; status: bigint | undefined }

/**
 * Each transaction's gas used and status, from a block's EIP-2718-encoded receipts (in order): the
 * gas a receipt records is the block's cumulative gas, so a transaction's is the step from the one
 * before. Throws on an encoding that is not a receipt.
 */
export function receiptOutcomes(encoded: readonly Uint8Array[]): ReceiptOutcome[] {
  let before = 0n
  return encoded.map((bytes, i) => {
    // A typed receipt is its type byte (< 0x80) and then its RLP list; a legacy one is the list alone.
    if (bytes.length === 0) throw new Error(`receipt ${i} is empty`)
    const fields = RLP.decode(bytes[0]! >= 0xc0 ? bytes : bytes.subarray(1))
    const [outcome, cumulative] = Array.isArray(fields) ? fields : []
    if (!(outcome instanceof Uint8Array) || !(cumulative instanceof Uint8Array) || cumulative.length > 32)
      throw new Error(`receipt ${i} is not a receipt's RLP list`)
    const total = bytesToBigInt(cumulative)
    if (total < before) throw new Error(`receipt ${i}'s cumulative gas is below the one before`)
    const gasUsed = total - before
    before = total
    if (outcome.length === 32) return { gasUsed, status: undefined }
    if (outcome.length > 1) throw new Error(`receipt ${i}'s status is neither a status nor a state root`)
    return { gasUsed, status: bytesToBigInt(outcome) }
  })
}
