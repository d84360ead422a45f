import { createMPT, createMerkleProof } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP, bytesToHex, hexToBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { describe, expect, it } from 'vitest'
import { decodeStorageLeaf, verifyProof } from './verifyProof.js'

const key = (n: number) => hexToBytes(`0x${n.toString(16).padStart(64, '0')}`)

async function trieWith(entries: [number, number][]) {
  const trie = await createMPT({ useKeyHashing: true })
  for (const [k, v] of entries) await trie.put(key(k), RLP.encode(v))
  return trie
}

describe('verifyProof', () => {
  it('proves a present key and a missing one against the root', async () => {
    const trie = await trieWith([
      [1, 10],
      [2, 20],
      [3, 30],
    ])
    const present = (await createMerkleProof(trie, key(2))).map((n) => bytesToHex(n))
    expect(decodeStorageLeaf(await verifyProof(trie.root(), key(2), present))).toEqual(new Uint8Array([20]))
    const absent = (await createMerkleProof(trie, key(9))).map((n) => bytesToHex(n))
    expect(await verifyProof(trie.root(), key(9), absent)).toBeNull()
  })

  it('refuses a proof for another root and a truncated proof', async () => {
    const trie = await trieWith([
      [1, 10],
      [2, 20],
      [3, 30],
    ])
    const proof = (await createMerkleProof(trie, key(2))).map((n) => bytesToHex(n))
    await expect(verifyProof(keccak_256(new Uint8Array([1])), key(2), proof)).rejects.toThrow('the proof is rooted at')
    await expect(verifyProof(trie.root(), key(2), proof.slice(0, 1))).rejects.toThrow('missing nodes')
  })

  it('an empty trie proves every key absent, whether the node sends [] or the empty root node', async () => {
    expect(await verifyProof(KECCAK256_RLP, key(0), [])).toBeNull()
    expect(await verifyProof(KECCAK256_RLP, key(0), ['0x80'])).toBeNull()
    await expect(verifyProof(KECCAK256_RLP, key(0), ['0xc0'])).rejects.toThrow('the proof is rooted at')
    const trie = await trieWith([[1, 1]])
    await expect(verifyProof(trie.root(), key(1), [])).rejects.toThrow('empty proof for a non-empty trie')
  })
})
