import type { AccessListEntry } from '../state/types.js'
import type { Hex } from '../types/hex.js'

/** The transaction-like object of eth_call / eth_estimateGas / eth_createAccessList (geth's TransactionArgs). */
export type CallArgs = {
  from?: Hex | undefined
  to?: Hex | undefined
  gas?: bigint | undefined
  gasPrice?: bigint | undefined
  maxFeePerGas?: bigint | undefined
  maxPriorityFeePerGas?: bigint | undefined
  value?: bigint | undefined
  data?: Hex | undefined
  nonce?: bigint | undefined
  accessList?: AccessListEntry[] | undefined
  authorizationList?: AuthorizationEntry[] | undefined
  /** A blob transaction's (EIP-4844): the call is made as one, BLOBHASH answering these. */
  blobVersionedHashes?: Hex[] | undefined
  maxFeePerBlobGas?: bigint | undefined
  /** Checked against the chain's (geth: `chainId does not match node's`). */
  chainId?: bigint | undefined
}

export type AuthorizationEntry = {
  chainId: bigint
  address: Hex
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
