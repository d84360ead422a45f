import { bytesToHex, concatBytes, hexToBytes, setLengthLeft, bigIntToBytes } from '@ethereumjs/util'
import { keccak256 } from '../../utils/keccak256.js'
import type { Hex } from '../../types/hex.js'

const RECEIPT_PREFIX = new TextEncoder().encode('matic-bor-receipt-')

/**
 * The hash a Bor node gives a block's state-sync transaction (bor's GetDerivedBorTxHash of
 * BorReceiptKey): keccak256("matic-bor-receipt-" ‖ number as 8 big-endian bytes ‖ block hash). The
 * state-sync "transaction" is no transaction of the block: the commitState system calls bor makes
 * at a sprint's start with events from Heimdall, listed by its RPC after the block's transactions.
 */
export function borStateSyncTxHash(number: bigint, blockHash: string): Hex {
  return bytesToHex(
    keccak256(concatBytes(RECEIPT_PREFIX, setLengthLeft(bigIntToBytes(number), 8), hexToBytes(blockHash as Hex))),
  ) as Hex
}

/**
 * A Bor upstream's list for a block (transactions, their hashes, or receipts) split into what the
 * block's roots commit to and the state-sync entry bor appends last, recognised by its derived hash.
 */
export function splitBorStateSync<item>(
  items: readonly item[],
  hashOf: (item: item) => string | undefined,
  number: bigint,
  blockHash: string,
): { items: item[]; stateSync: Hex | undefined } {
  const last = items.at(-1)
  const derived = borStateSyncTxHash(number, blockHash)
  if (last !== undefined && hashOf(last)?.toLowerCase() === derived)
    return { items: items.slice(0, -1), stateSync: derived }
  return { items: [...items], stateSync: undefined }
}
