import { bigIntToBytes, concatBytes, setLengthLeft } from '@ethereumjs/util'
import type { LogRecord } from '../tracing/hooks.js'
import type { Hex } from '../types/hex.js'

// bor's core/bor_fee_log.go: every value transfer and every transaction's tip add a log of the
// MATIC token contract (0x…1010) to the state, which tracers see as any log.

/** Where bor's transfer logs come from. */
export const BOR_FEE_ADDRESS: Hex = '0x0000000000000000000000000000000000001010'
/** LogTransfer(address token, address from, address to, uint256 amount, input1, input2, output1, output2). */
export const BOR_TRANSFER_TOPIC: Hex = '0xe6497e3ee548a3372136af2fcb0696db31fc6cf20260707645068bd3fe97f3c4'
/** LogFeeTransfer, the same fields, for the tip a transaction paid its block's author. */
export const BOR_FEE_TRANSFER_TOPIC: Hex = '0x4dfe1bbbcf077ddc3e01291eea2d5c70c2b422b415d95645b9adcfd678cb1d63'

const word = (v: bigint) => setLengthLeft(bigIntToBytes(v), 32)
const addressWord = (a: string) => `0x${a.slice(2).toLowerCase().padStart(64, '0')}` as Hex

/**
 * The log bor adds for `amount` moved from `from` to `to` (balances before: `fromBalance`,
 * `toBalance`; after: as bor computes them). Undefined for a zero amount, which bor does not log.
 */
export function borTransferLog(
  topic: Hex,
  from: Hex,
  to: Hex,
  amount: bigint,
  fromBalance: bigint,
  toBalance: bigint,
  after: { from: bigint; to: bigint },
): Omit<LogRecord, 'index'> | undefined {
  if (amount <= 0n) return undefined
  return {
    address: BOR_FEE_ADDRESS,
    topics: [topic, addressWord(BOR_FEE_ADDRESS), addressWord(from), addressWord(to)],
    data: concatBytes(word(amount), word(fromBalance), word(toBalance), word(after.from), word(after.to)),
  }
}

/** A value transfer's log: the balances after are the ones the transfer leaves (the same for a transfer to oneself). */
export function borValueTransferLog(
  from: Hex,
  to: Hex,
  amount: bigint,
  fromBalance: bigint,
  toBalance: bigint,
): Omit<LogRecord, 'index'> | undefined {
  const self = from.toLowerCase() === to.toLowerCase()
  return borTransferLog(BOR_TRANSFER_TOPIC, from, to, amount, fromBalance, toBalance, {
    from: self ? fromBalance : fromBalance - amount,
    to: self ? toBalance : toBalance + amount,
  })
}

/**
 * A transaction's fee log: the tip paid to the author, with the sender's balance before the
 * transaction and the author's, and "after" figures that take off and add the tip alone (bor's
 * deprecated log does not count the gas bought or the base fee).
 */
export function borFeeTransferLog(
  from: Hex,
  author: Hex,
  tip: bigint,
  fromBalance: bigint,
  authorBalance: bigint,
): Omit<LogRecord, 'index'> | undefined {
  return borTransferLog(BOR_FEE_TRANSFER_TOPIC, from, author, tip, fromBalance, authorBalance, {
    from: fromBalance - tip,
    to: authorBalance + tip,
  })
}
