import type { Hex } from '../../types/hex.js'
import { addressTopic } from './abiWords.js'
import type { SimulatedLog } from '../createSimulationLogRecorder.js'

/** The canonical Permit2 contract (the same address on every chain: 0x000000000022D473030F116dDEE9F6B43aC78BA3). */
export const PERMIT2 = '0x000000000022d473030f116ddee9f6b43ac78ba3'
/** keccak256 of `Approval(address,address,uint256)`: ERC-20's (3 topics, the amount in data) and ERC-721's (4, the token id). */
export const APPROVAL_TOPIC = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'
/** keccak256 of `ApprovalForAll(address,address,bool)` (ERC-721 and ERC-1155). */
export const APPROVAL_FOR_ALL_TOPIC = '0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31'
/**
 * Permit2's events with owner, token and spender indexed (4 topics): `Approval(owner, token, spender,
 * uint160 amount, uint48 expiration)`, `Permit(…, uint160 amount, uint48 expiration, uint48 nonce)` and
 * `NonceInvalidation(…, uint48 newNonce, uint48 oldNonce)`.
 */
export const PERMIT2_TOPICS = new Set([
  '0xda9fa7c1b00402c17d0161b249b1ab8bbec047c5a52207b9c112deffd817036b',
  '0xc6a377bfc4eb120024a8ac08eef205be16b817020812c73223e81d1bdb9708ec',
  '0x55eb90d810e1700b35a8e7e25395ff7f2b2259abd7415ca2284dfb1c246418f3',
])
/** Permit2's `Lockdown(address indexed owner, address token, address spender)`: only the owner indexed, token and spender in data. */
export const PERMIT2_LOCKDOWN_TOPIC = '0x89b1add15eff56b3dfe299ad94e01f2b52fbcb80ae1a3baea6ae8c04cb2b98a4'

/**
 * An approval of the account the calls may have granted or changed: an ERC-20 allowance (token,
 * spender), an ERC-721 token's approved address (token, id), an operator for all of a collection
 * (token, operator), a Permit2 allowance (the ERC-20 token, spender).
 */
export type ApprovalTouched =
  | { kind: 'allowance'; address: Hex; spender: Hex }
  | { kind: 'approve'; address: Hex; tokenId: bigint }
  | { kind: 'approvalForAll'; address: Hex; spender: Hex }
  | { kind: 'permit2'; address: Hex; spender: Hex }

const addressOf = (topic: string): Hex => `0x${topic.slice(26)}`

/**
 * The approvals of `account` the logs say may have changed, in order of first mention: an
 * `Approval` with the account as owner (three topics: an ERC-20 allowance, also what an EIP-2612
 * `permit` emits; four: an ERC-721 token's approval), an `ApprovalForAll` of the account, and a
 * Permit2 `Approval`/`Permit`/`NonceInvalidation`/`Lockdown` of the account (logged by the canonical
 * Permit2 only; Lockdown's token and spender are in its data). Permit2's own `transferFrom` spends an
 * allowance without an event of it: not listed, as an ERC-20 `transferFrom` is not.
 * The logs only say where to look; the approvals are read before and after.
 */
export function approvalsTouched(logs: readonly SimulatedLog[], account: Hex): ApprovalTouched[] {
  const who = addressTopic(account)
  const out = new Map<string, ApprovalTouched>()
  const add = (a: ApprovalTouched) => {
    const key = `${a.kind}/${a.address}/${'tokenId' in a ? a.tokenId : a.spender}`
    if (!out.has(key)) out.set(key, a)
  }
  for (const log of logs) {
    const topics = log.topics.map((t) => t.toLowerCase())
    const [topic, owner] = topics
    if (owner !== who) continue
    const address = log.address.toLowerCase() as Hex
    if (topic === APPROVAL_TOPIC && topics.length === 3)
      add({ kind: 'allowance', address, spender: addressOf(topics[2]!) })
    if (topic === APPROVAL_TOPIC && topics.length === 4) add({ kind: 'approve', address, tokenId: BigInt(topics[3]!) })
    if (topic === APPROVAL_FOR_ALL_TOPIC && topics.length === 3) {
      add({ kind: 'approvalForAll', address, spender: addressOf(topics[2]!) })
    }
    if (address === PERMIT2 && PERMIT2_TOPICS.has(topic!) && topics.length === 4) {
      add({ kind: 'permit2', address: addressOf(topics[2]!), spender: addressOf(topics[3]!) })
    }
    if (address === PERMIT2 && topic === PERMIT2_LOCKDOWN_TOPIC && topics.length === 2 && log.data.length >= 2 + 128) {
      const data = log.data.toLowerCase()
      add({ kind: 'permit2', address: `0x${data.slice(26, 66)}`, spender: `0x${data.slice(90, 130)}` })
    }
  }
  return [...out.values()]
}
