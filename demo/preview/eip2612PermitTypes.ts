/** EIP-712's domain type with name, version, chainId and verifyingContract (an EIP-2612 token's), a fresh copy each call. */
export const eip712DomainType = () => [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
]

/**
 * The types of an EIP-2612 permit's typed data: its domain and Permit(owner, spender, value, nonce, deadline),
 * a fresh copy each call (a test may change its copy).
 */
export const eip2612PermitTypes = () => ({
  EIP712Domain: eip712DomainType(),
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
})
