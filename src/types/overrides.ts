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
