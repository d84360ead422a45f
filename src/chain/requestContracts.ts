import type { Common } from '@ethereumjs/common'

/** EIP-7002's and EIP-7251's queue contracts where the EIPs put them. */
export const WITHDRAWAL_QUEUE_ADDRESS = '0x00000961ef480eb55e80d19ad83579a64c007002'
export const CONSOLIDATION_QUEUE_ADDRESS = '0x0000bbddc7ce488642fb579f8b00f3a590007251'

/** Where a chain's EIP-7685 requests come from (addresses lowercase). */
export type RequestContracts = {
  /** EIP-6110's deposit contract, whose logs are deposit requests; none known, no deposits. */
  deposit: string | undefined
  withdrawalQueue: string
  consolidationQueue: string
}

/**
 * The chain's request contracts: the deposit contract its Common knows (ethereumjs' for known chains,
 * the genesis' `depositContractAddress`), and the queues where a genesis moves them (Besu's
 * `withdrawalRequestContractAddress` / `consolidationRequestContractAddress`) or the EIPs' addresses.
 */
export function requestContracts(common: Common): RequestContracts {
  const params = (common as unknown as { _chainParams: Record<string, unknown> })._chainParams
  const address = (key: string) => (typeof params[key] === 'string' ? (params[key] as string).toLowerCase() : undefined)
  return {
    deposit: address('depositContractAddress'),
    withdrawalQueue: address('withdrawalRequestContractAddress') ?? WITHDRAWAL_QUEUE_ADDRESS,
    consolidationQueue: address('consolidationRequestContractAddress') ?? CONSOLIDATION_QUEUE_ADDRESS,
  }
}
