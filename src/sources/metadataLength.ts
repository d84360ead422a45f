/**
 * The length of the CBOR metadata solc appends to runtime code, its two-byte length included: the
 * last two bytes give the CBOR's length, and the CBOR must be a map (major type 5). 0 when the tail
 * is not such metadata.
 */
export function metadataLength(code: Uint8Array): number {
  if (code.length < 2) return 0
  const cbor = (code[code.length - 2]! << 8) | code[code.length - 1]!
  const start = code.length - 2 - cbor
  if (cbor === 0 || start < 0) return 0
  const first = code[start]!
  if (first >> 5 !== 5) return 0
  return cbor + 2
}
