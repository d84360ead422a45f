/** A 0x-prefixed hex string: an address, a hash, a quantity or raw bytes as they go on the wire. */
export type Hex = `0x${string}`
