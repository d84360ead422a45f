import { keccak256 } from '../utils/keccak256.js'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'

/**
 * The root of a block's receipts trie, as its header's receiptsRoot commits to it: each receipt's
 * EIP-2718 encoding under its index, RLP-encoded (an empty list gives the empty trie's root).
 */
export async function receiptsRoot(encoded: readonly Uint8Array[]): Promise<Uint8Array> {
  const trie = new MerklePatriciaTrie({ useKeyHashingFunction: keccak256 })
  for (const [i, bytes] of encoded.entries()) await trie.put(RLP.encode(i), bytes)
  return trie.root()
}
