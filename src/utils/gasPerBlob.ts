/** EIP-4844: the blob gas one blob uses. */
export const GAS_PER_BLOB = 131_072n
