import type { Hex } from '../../types/hex.js'
import { addressTopic } from './abiWords.js'
import type { SimulatedLog } from '../createSimulationLogRecorder.js'

/** keccak256 of `Transfer(address,address,uint256)`: ERC-20's (3 topics) and ERC-721's (4 topics). */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
/** keccak256 of WETH9's `Deposit(address,uint256)` and `Withdrawal(address,uint256)`. */
export const DEPOSIT_TOPIC = '0xe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c'
export const WITHDRAWAL_TOPIC = '0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65'

/**
 * The ERC-20 tokens whose balance of `account` the logs say may have moved, in order of first
 * mention: a Transfer with three topics (an ERC-20's: ERC-721's has four) from or to the account, or
 * a WETH-style Deposit or Withdrawal of it. The logs only say where to look; balances are read.
 */
export function tokensMoved(logs: readonly SimulatedLog[], account: Hex): Hex[] {
  const who = addressTopic(account)
  const out = new Set<Hex>()
  for (const log of logs) {
    const [topic, a, b] = log.topics.map((t) => t.toLowerCase())
    const transfer = topic === TRANSFER_TOPIC && log.topics.length === 3 && (a === who || b === who)
    const weth = (topic === DEPOSIT_TOPIC || topic === WITHDRAWAL_TOPIC) && log.topics.length === 2 && a === who
    if (transfer || weth) out.add(log.address.toLowerCase() as Hex)
  }
  return [...out]
}
