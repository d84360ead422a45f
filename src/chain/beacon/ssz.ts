import { sha256 } from '@noble/hashes/sha2.js'

// The few pieces of SSZ (the consensus layer's serialization and Merkle hashing) the light client
// needs: little-endian integers, fixed byte vectors, offsets of variable-size fields, and
// hash_tree_root by merkleization of 32-byte chunks.

const ZERO_CHUNK = new Uint8Array(32)

/** zeroHashes[d]: the root of a depth-d tree of zero chunks. */
const zeroHashes: Uint8Array[] = [ZERO_CHUNK]
for (let d = 1; d < 64; d++) zeroHashes.push(hashPair(zeroHashes[d - 1]!, zeroHashes[d - 1]!))

/** sha256(a ‖ b). */
export function hashPair(a: Uint8Array, b: Uint8Array): Uint8Array {
  const both = new Uint8Array(64)
  both.set(a, 0)
  both.set(b, 32)
  return sha256(both)
}

/**
 * The Merkle root of `chunks` (each 32 bytes), padded with zero chunks to the next power of two of
 * `limit` (or of their count).
 */
export function merkleize(chunks: readonly Uint8Array[], limit = chunks.length): Uint8Array {
  if (chunks.length > limit) throw new Error(`ssz: ${chunks.length} chunks over the limit of ${limit}`)
  let depth = 0
  while (1 << depth < limit) depth++
  if (chunks.length === 0) return zeroHashes[depth]!
  let layer = [...chunks]
  for (let d = 0; d < depth; d++) {
    const next: Uint8Array[] = []
    for (let i = 0; i < layer.length; i += 2) next.push(hashPair(layer[i]!, layer[i + 1] ?? zeroHashes[d]!))
    layer = next
  }
  return layer[0]!
}

/** mix_in_length: a list's root from its contents' root and its length. */
export function mixInLength(root: Uint8Array, length: number): Uint8Array {
  return hashPair(root, uint64Chunk(BigInt(length)))
}

/** Bytes cut into 32-byte chunks, the last padded with zeros. */
export function pack(bytes: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = []
  for (let i = 0; i < bytes.length; i += 32) {
    const chunk = new Uint8Array(32)
    chunk.set(bytes.subarray(i, i + 32))
    chunks.push(chunk)
  }
  return chunks
}

/** hash_tree_root of a fixed-length byte vector (Bytes20, Bytes48, Bytes256, …). */
export function bytesRoot(bytes: Uint8Array): Uint8Array {
  return bytes.length === 32 ? bytes : merkleize(pack(bytes))
}

/** A uint64 as its 32-byte chunk (little-endian). */
export function uint64Chunk(value: bigint): Uint8Array {
  const chunk = new Uint8Array(32)
  new DataView(chunk.buffer).setBigUint64(0, value, true)
  return chunk
}

/** A uint256 as its 32-byte chunk (little-endian). */
export function uint256Chunk(value: bigint): Uint8Array {
  const chunk = new Uint8Array(32)
  let v = value
  for (let i = 0; i < 32; i++) {
    chunk[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return chunk
}

/** is_valid_merkle_branch: whether `leaf` at `index` of a depth-`depth` tree under `root` is proven by `branch`. */
export function isValidMerkleBranch(
  leaf: Uint8Array,
  branch: readonly Uint8Array[],
  depth: number,
  index: number,
  root: Uint8Array,
): boolean {
  if (branch.length !== depth) return false
  let value = leaf
  for (let i = 0; i < depth; i++) {
    value = Math.floor(index / 2 ** i) % 2 === 1 ? hashPair(branch[i]!, value) : hashPair(value, branch[i]!)
  }
  return equalBytes(value, root)
}

/** A bitvector's bits from its bytes (bit i is bit i % 8 of byte i / 8). */
export function unpackBits(bytes: Uint8Array, count: number): boolean[] {
  return Array.from({ length: count }, (_, i) => ((bytes[i >> 3]! >> (i & 7)) & 1) === 1)
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

export function isZero(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b !== 0) return false
  return true
}

/** Reads SSZ fields in order from one serialized container; `end` says it held nothing more. */
export class SszReader {
  private at = 0
  constructor(
    readonly bytes: Uint8Array,
    readonly what: string,
  ) {}

  take(length: number): Uint8Array {
    if (this.at + length > this.bytes.length)
      throw new Error(`ssz: ${this.what} is ${this.bytes.length} bytes, too short at byte ${this.at} (+${length})`)
    const out = this.bytes.subarray(this.at, this.at + length)
    this.at += length
    return out
  }

  uint64(): bigint {
    const b = this.take(8)
    return new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0, true)
  }

  /** A uint64 that must fit a JavaScript number (slots, indices). */
  smallUint64(): number {
    const value = this.uint64()
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`ssz: ${this.what}: ${value} is too large`)
    return Number(value)
  }

  uint256(): bigint {
    const b = this.take(32)
    let value = 0n
    for (let i = 31; i >= 0; i--) value = (value << 8n) | BigInt(b[i]!)
    return value
  }

  offset(): number {
    const b = this.take(4)
    return new DataView(b.buffer, b.byteOffset, 4).getUint32(0, true)
  }

  vector(count: number, size: number): Uint8Array[] {
    return Array.from({ length: count }, () => this.take(size))
  }

  get position(): number {
    return this.at
  }

  /**
   * The variable-size parts of a container, from the offsets read in its fixed part: each from its
   * offset to the next (the last to the end). Offsets must start at the fixed part's end and rise.
   */
  variableParts(offsets: readonly number[]): Uint8Array[] {
    if (offsets.length === 0) {
      if (this.at !== this.bytes.length)
        throw new Error(`ssz: ${this.what} has ${this.bytes.length - this.at} bytes too many`)
      return []
    }
    if (offsets[0] !== this.at) throw new Error(`ssz: ${this.what}: first offset ${offsets[0]} is not ${this.at}`)
    return offsets.map((start, i) => {
      const end = offsets[i + 1] ?? this.bytes.length
      if (end < start || end > this.bytes.length) throw new Error(`ssz: ${this.what}: offsets out of order`)
      return this.bytes.subarray(start, end)
    })
  }
}
