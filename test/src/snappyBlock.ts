/**
 * Decompresses snappy's block format (not the framed stream format): a varint of the uncompressed
 * length, then literals and back-references. The consensus spec tests ship their SSZ this way.
 */
export function uncompressSnappyBlock(input: Uint8Array): Uint8Array {
  let at = 0
  let length = 0
  for (let shift = 0; ; shift += 7) {
    const b = input[at++]
    if (b === undefined || shift > 28) throw new Error('snappy: bad length preamble')
    length |= (b & 0x7f) << shift
    if (b < 0x80) break
  }
  const out = new Uint8Array(length)
  let written = 0
  const copy = (offset: number, len: number) => {
    if (offset === 0 || offset > written || written + len > length) throw new Error('snappy: bad copy')
    for (let i = 0; i < len; i++) out[written + i] = out[written - offset + i]!
    written += len
  }
  const readLE = (bytes: number) => {
    let v = 0
    for (let i = 0; i < bytes; i++) v += input[at++]! * 2 ** (8 * i)
    return v
  }
  while (at < input.length) {
    const tag = input[at++]!
    switch (tag & 3) {
      case 0: {
        let len = tag >> 2
        if (len >= 60) len = readLE(len - 59)
        len += 1
        if (at + len > input.length || written + len > length) throw new Error('snappy: bad literal')
        out.set(input.subarray(at, at + len), written)
        at += len
        written += len
        break
      }
      case 1:
        copy(((tag >> 5) << 8) | input[at++]!, 4 + ((tag >> 2) & 7))
        break
      case 2:
        copy(readLE(2), (tag >> 2) + 1)
        break
      default:
        copy(readLE(4), (tag >> 2) + 1)
    }
  }
  if (written !== length) throw new Error(`snappy: ${written} bytes, want ${length}`)
  return out
}
