import { createMPTFromProof } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP, bytesToHex, equalsBytes, hexToBytes } from '@ethereumjs/util'
import { keccak256 } from '../utils/keccak256.js'
import { ProofRootMismatchError } from '../errors/state.js'
import type { Hex } from '../types/hex.js'

/**
 * Verifies an EIP-1186 Merkle-Patricia proof of `key` (hashed with keccak256, as in the state and
 * storage tries) against `root`. Returns the RLP-encoded leaf value, or null for a valid proof of
 * absence. Throws when the proof does not lead from `root` to a conclusion about the key.
 */
export async function verifyProof(
  root: Uint8Array,
  key: Uint8Array,
  proof: readonly string[],
): Promise<Uint8Array | null> {
  if (equalsBytes(root, KECCAK256_RLP)) {
    // An empty trie proves every key absent; nodes may send [] or the empty root node itself.
    if (proof.length === 0 || (proof.length === 1 && proof[0] === '0x80')) return null
  }
  if (proof.length === 0) throw new Error('empty proof for a non-empty trie')
  const nodes = proof.map((node) => hexToBytes(node as Hex))
  const proofRoot = keccak256(nodes[0]!)
  if (!equalsBytes(proofRoot, root)) {
    throw new ProofRootMismatchError(bytesToHex(proofRoot), bytesToHex(root))
  }
  let trie
  try {
    trie = await createMPTFromProof(nodes, { root, useKeyHashing: true, useKeyHashingFunction: keccak256 })
  } catch (err) {
    throw new Error(`malformed proof: ${err instanceof Error ? err.message : String(err)}`)
  }
  try {
    return await trie.get(key, true)
  } catch {
    throw new Error('proof is missing nodes on the path to the key')
  }
}

/** The value stored in a storage-trie leaf: RLP(bytes without leading zeros). */
export function decodeStorageLeaf(leaf: Uint8Array | null): Uint8Array {
  if (leaf === null) return new Uint8Array(0)
  const decoded = RLP.decode(leaf)
  if (!(decoded instanceof Uint8Array)) throw new Error('storage leaf is not a byte string')
  return decoded
}
