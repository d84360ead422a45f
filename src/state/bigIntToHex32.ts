/** A storage key as 32-byte lowercase hex (upstreams and access lists may shorten it). */
export function bigIntToHex32(key: `0x${string}` | string): `0x${string}` {
  return `0x${BigInt(key).toString(16).padStart(64, '0')}` as `0x${string}`
}
