import type { AccessListEntry } from '../state/types.js'

/** The transaction-like object of eth_call / eth_estimateGas / eth_createAccessList (geth's TransactionArgs). */
export type CallArgs = {
  from?: `0x${string}` | undefined
  to?: `0x${string}` | undefined
  gas?: bigint | undefined
  gasPrice?: bigint | undefined
  maxFeePerGas?: bigint | undefined
  maxPriorityFeePerGas?: bigint | undefined
  value?: bigint | undefined
  data?: `0x${string}` | undefined
  nonce?: bigint | undefined
  accessList?: AccessListEntry[] | undefined
  authorizationList?: AuthorizationEntry[] | undefined
}

export type AuthorizationEntry = {
  chainId: bigint
  address: `0x${string}`
  nonce: bigint
  yParity: bigint
  r: bigint
  s: bigint
}

/** How an execution ended. */
export type ExecutionOutcome =
  | { status: 'success' }
  | { status: 'reverted' }
  /** Another EVM error (out of gas, invalid opcode, …) with geth's message. */
  | { status: 'failed'; message: string }

/** geth's per-account state override (eth_call's third argument, debug_traceCall's stateOverrides). */
export type AccountOverride = {
  balance?: bigint | undefined
  nonce?: bigint | undefined
  code?: `0x${string}` | undefined
  /** Replaces the whole storage. */
  state?: Record<`0x${string}`, `0x${string}`> | undefined
  /** Patches single slots. */
  stateDiff?: Record<`0x${string}`, `0x${string}`> | undefined
}

export type StateOverrides = Record<`0x${string}`, AccountOverride>

/** geth's block overrides (eth_call's fourth argument). */
export type BlockOverrides = {
  number?: bigint | undefined
  time?: bigint | undefined
  gasLimit?: bigint | undefined
  feeRecipient?: `0x${string}` | undefined
  prevRandao?: `0x${string}` | undefined
  baseFeePerGas?: bigint | undefined
}
