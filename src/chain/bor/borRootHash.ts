import { concatBytes, setLengthLeft, bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { keccak256 } from '../../utils/keccak256.js'

/** The most blocks one checkpoint root covers (Bor's MaxCheckpointLength, 2^15). */
export const MAX_CHECKPOINT_LENGTH = 2 ** 15

/** What a checkpoint leaf commits to, per block. */
export type CheckpointBlock = {
  number: bigint
  timestamp: bigint
  transactionsTrie: Uint8Array
  receiptTrie: Uint8Array
}

const word = (n: bigint) => setLengthLeft(bigIntToUnpaddedBytes(n), 32)

/**
 * Bor's checkpoint root hash of consecutive blocks (GetRootHash): one leaf per block,
 * keccak256(number ‖ timestamp ‖ transactionsRoot ‖ receiptsRoot) with the numbers as 32-byte words;
 * zero leaves added up to the next power of two; each parent keccak256(left ‖ right), unsorted, the
 * leaves not hashed again; a single leaf is its own root.
 */
export function borRootHash(blocks: readonly CheckpointBlock[]): Uint8Array {
  if (blocks.length === 0) throw new Error('a checkpoint covers at least one block')
  let level: Uint8Array[] = blocks.map((b) =>
    keccak256(concatBytes(word(b.number), word(b.timestamp), b.transactionsTrie, b.receiptTrie)),
  )
  let width = 1
  while (width < level.length) width *= 2
  while (level.length < width) level.push(new Uint8Array(32))
  while (level.length > 1) {
    const next: Uint8Array[] = []
    for (let i = 0; i < level.length; i += 2) next.push(keccak256(concatBytes(level[i]!, level[i + 1]!)))
    level = next
  }
  return level[0]!
}
