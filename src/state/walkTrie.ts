import { type NestedUint8Array, RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP, bytesToHex, equalsBytes } from '@ethereumjs/util'
import type { Hex } from '../types/hex.js'

/**
 * Where a walk down a Merkle-Patricia trie toward one key ended: at its leaf's value, at the proof
 * that the key is absent (`value` null), or at a node it does not have (`missing`, by hash).
 */
export type TrieWalkResult = { value: Uint8Array | null } | { missing: Hex }

type Node = Uint8Array | NestedUint8Array

/**
 * Walks from `root` toward `hashedKey` (the key already hashed, as in the state and storage tries),
 * taking each node by its hash from `nodeOf`, which must give only nodes that hash to the hash
 * asked for (so a walk that ends is a proof, checked node by node from the root). Nodes embedded in
 * their parent (under 32 bytes) are read in place. Throws on a node that is not a trie node, or a
 * path that cannot be in a trie of 32-byte keys.
 */
export function walkTrie(
  root: Uint8Array,
  hashedKey: Uint8Array,
  nodeOf: (hash: Hex) => Uint8Array | undefined,
): TrieWalkResult {
  if (equalsBytes(root, KECCAK256_RLP)) return { value: null }
  const nibbles = toNibbles(hashedKey)
  let at = 0
  let ref: Node = root
  for (let depth = 0; depth <= 2 * nibbles.length + 1; depth++) {
    let node: NestedUint8Array
    if (ref instanceof Uint8Array) {
      if (ref.length === 0) return { value: null }
      if (ref.length !== 32) throw new Error('a trie reference that is neither a hash nor an embedded node')
      const hash = bytesToHex(ref) as Hex
      const bytes = nodeOf(hash)
      if (bytes === undefined) return { missing: hash }
      const decoded = RLP.decode(bytes)
      if (!Array.isArray(decoded)) throw new Error(`trie node ${hash} is not a list`)
      node = decoded
    } else node = ref
    if (node.length === 17) {
      if (at === nibbles.length) throw new Error('a branch at the end of a 32-byte key')
      ref = node[nibbles[at++]!]!
      continue
    }
    if (node.length !== 2 || !(node[0] instanceof Uint8Array)) throw new Error('a trie node of the wrong shape')
    const { path, leaf } = decodeCompactPath(node[0])
    const rest = nibbles.subarray(at)
    if (leaf) {
      if (path.length !== rest.length || !path.every((n, i) => n === rest[i])) return { value: null }
      const value = node[1]
      if (!(value instanceof Uint8Array)) throw new Error('a leaf whose value is not bytes')
      return { value }
    }
    if (path.length === 0 || path.length >= rest.length || !path.every((n, i) => n === rest[i])) return { value: null }
    at += path.length
    ref = node[1]!
  }
  throw new Error('a trie path longer than its key')
}

function toNibbles(key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length * 2)
  for (let i = 0; i < key.length; i++) {
    out[2 * i] = key[i]! >> 4
    out[2 * i + 1] = key[i]! & 0x0f
  }
  return out
}

/** A leaf's or extension's hex-prefix path (Yellow Paper, appendix C). */
function decodeCompactPath(encoded: Uint8Array): { path: number[]; leaf: boolean } {
  if (encoded.length === 0) throw new Error('an empty compact path')
  const flag = encoded[0]! >> 4
  if (flag > 3) throw new Error('a compact path with an unknown flag')
  const path: number[] = flag & 1 ? [encoded[0]! & 0x0f] : []
  for (let i = 1; i < encoded.length; i++) path.push(encoded[i]! >> 4, encoded[i]! & 0x0f)
  return { path, leaf: flag >= 2 }
}
