import { parseAbi } from 'viem'

/**
 * Permit2's EIP-712 types (its domain has no version) for a primary type, a fresh copy each call:
 * `PermitSingle` / `PermitBatch` (AllowanceTransfer) or `PermitTransferFrom` /
 * `PermitBatchTransferFrom` (SignatureTransfer).
 */
export function permit2Types(
  primaryType: 'PermitSingle' | 'PermitBatch' | 'PermitTransferFrom' | 'PermitBatchTransferFrom',
) {
  const EIP712Domain = [
    { name: 'name', type: 'string' },
    { name: 'chainId', type: 'uint256' },
    { name: 'verifyingContract', type: 'address' },
  ]
  if (primaryType === 'PermitTransferFrom' || primaryType === 'PermitBatchTransferFrom') {
    return {
      EIP712Domain,
      TokenPermissions: [
        { name: 'token', type: 'address' },
        { name: 'amount', type: 'uint256' },
      ],
      [primaryType]: [
        {
          name: 'permitted',
          type: primaryType === 'PermitBatchTransferFrom' ? 'TokenPermissions[]' : 'TokenPermissions',
        },
        { name: 'spender', type: 'address' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    }
  }
  return {
    EIP712Domain,
    PermitDetails: [
      { name: 'token', type: 'address' },
      { name: 'amount', type: 'uint160' },
      { name: 'expiration', type: 'uint48' },
      { name: 'nonce', type: 'uint48' },
    ],
    [primaryType]: [
      { name: 'details', type: primaryType === 'PermitBatch' ? 'PermitDetails[]' : 'PermitDetails' },
      { name: 'spender', type: 'address' },
      { name: 'sigDeadline', type: 'uint256' },
    ],
  }
}

const STRUCTS = [
  'struct PermitDetails { address token; uint160 amount; uint48 expiration; uint48 nonce; }',
  'struct TokenPermissions { address token; uint256 amount; }',
  'struct SignatureTransferDetails { address to; uint256 requestedAmount; }',
] as const

/** Permit2's functions the tests call, one ABI per overload (viem picks none for us). */
export const PERMIT2_ABI = {
  permitSingle: parseAbi([
    ...STRUCTS,
    'struct PermitSingle { PermitDetails details; address spender; uint256 sigDeadline; }',
    'function permit(address owner, PermitSingle permitSingle, bytes signature)',
  ]),
  permitBatch: parseAbi([
    ...STRUCTS,
    'struct PermitBatch { PermitDetails[] details; address spender; uint256 sigDeadline; }',
    'function permit(address owner, PermitBatch permitBatch, bytes signature)',
  ]),
  permitTransferFrom: parseAbi([
    ...STRUCTS,
    'struct PermitTransferFrom { TokenPermissions permitted; uint256 nonce; uint256 deadline; }',
    'function permitTransferFrom(PermitTransferFrom permit, SignatureTransferDetails transferDetails, address owner, bytes signature)',
  ]),
  permitBatchTransferFrom: parseAbi([
    ...STRUCTS,
    'struct PermitBatchTransferFrom { TokenPermissions[] permitted; uint256 nonce; uint256 deadline; }',
    'function permitTransferFrom(PermitBatchTransferFrom permit, SignatureTransferDetails[] transferDetails, address owner, bytes signature)',
  ]),
  lockdown: parseAbi([
    'struct TokenSpenderPair { address token; address spender; }',
    'function lockdown(TokenSpenderPair[] approvals)',
  ]),
}
