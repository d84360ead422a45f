/** Whether a quantity the upstream claims (hex, any padding) is the value a proof proves; false if unparsable. */
export function sameQuantity(hex: unknown, value: bigint): boolean {
  try {
    return typeof hex === 'string' && BigInt(hex) === value
  } catch {
    return false
  }
}
