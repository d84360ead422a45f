import type { Hex } from './hex.js'
/** geth's per-account state override (eth_call's third argument, debug_traceCall's stateOverrides). */
export type AccountOverride = {
  balance?: bigint | undefined
  nonce?: bigint | undefined
  code?: Hex | undefined
  /** Replaces the whole storage. */
  state?: Record<Hex, Hex> | undefined
  /** Patches single slots. */
  stateDiff?: Record<Hex, Hex> | undefined
}

export type StateOverrides = Record<Hex, AccountOverride>

/** geth's block overrides (eth_call's fourth argument). */
export type BlockOverrides = {
  number?: bigint | undefined
  time?: bigint | undefined
  gasLimit?: bigint | undefined
  feeRecipient?: Hex | undefined
  prevRandao?: Hex | undefined
  baseFeePerGas?: bigint | undefined
}
