import { MerklePatriciaTrie, createMerkleProof, updateMPTFromMerkleProof } from '@ethereumjs/mpt'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { describe, expect, it } from 'vitest'
import { findKeyRoutedTo, writeProven } from './createStateRootTracker.js'

// The post-state root from proof nodes only: what a full trie gives, or an error — never a root made
// up from a node that was not there (ethereumjs alone takes a missing node for an empty subtree).

/** Two 32-byte keys whose hashes share their first nibble, and keys under the other nibbles. */
function keys(): { a: Uint8Array; b: Uint8Array; other: Uint8Array[] } {
  const byNibble = new Map<number, Uint8Array[]>()
  for (let i = 0; i < 400; i++) {
    const k = hexToBytes(`0x${i.toString(16).padStart(64, '0')}`)
    const n = keccak_256(k)[0]! >> 4
    byNibble.set(n, [...(byNibble.get(n) ?? []), k])
  }
  // Two keys alone under one first nibble: deleting one collapses their node onto the other.
  const pair = [...byNibble.values()].find((ks) => ks.length >= 2)!
  const other = [...byNibble.values()].filter((ks) => ks !== pair).flat()
  return { a: pair[0]!, b: pair[1]!, other }
}

async function fullTrie(all: Uint8Array[]) {
  const trie = new MerklePatriciaTrie({ useKeyHashing: true })
  for (const k of all) await trie.put(k, Uint8Array.from([0x80 + 1, k[31]! | 1]))
  return trie
}

async function sparseFrom(full: MerklePatriciaTrie, proven: Uint8Array[]) {
  const sparse = new MerklePatriciaTrie({ useKeyHashing: true })
  for (const k of proven) await updateMPTFromMerkleProof(sparse, await createMerkleProof(full, k), false)
  sparse.root(full.root())
  return sparse
}

describe('writeProven', () => {
  it('updates and inserts as the full trie does', async () => {
    const { a, b, other } = keys()
    const all = [a, b, ...other.slice(0, 60)]
    const full = await fullTrie(all)
    const fresh = hexToBytes(`0x${'ab'.repeat(32)}`)
    const sparse = await sparseFrom(full, [a, fresh])
    for (const t of [full]) {
      await t.put(a, Uint8Array.from([0x07]))
      await t.put(fresh, Uint8Array.from([0x09]))
    }
    await writeProven(sparse, a, Uint8Array.from([0x07]))
    await writeProven(sparse, fresh, Uint8Array.from([0x09]))
    expect(bytesToHex(sparse.root())).toBe(bytesToHex(full.root()))
  })

  it('a deletion that collapses a branch: the full trie’s root when the sibling was proven', async () => {
    const { a, b, other } = keys()
    const full = await fullTrie([a, b, ...other.slice(0, 60)])
    const sparse = await sparseFrom(full, [a, b])
    await full.del(a)
    await writeProven(sparse, a, null)
    expect(bytesToHex(sparse.root())).toBe(bytesToHex(full.root()))
  })

  it('a deletion that collapses a branch onto a sibling no proof brought: an error, not a root', async () => {
    const { a, b, other } = keys()
    const full = await fullTrie([a, b, ...other.slice(0, 60)])
    const sparse = await sparseFrom(full, [a])
    await expect(writeProven(sparse, a, null)).rejects.toThrow('Missing node in DB')
  })

  it('a write on a path whose nodes were not proven: an error, not a root', async () => {
    const { a, other } = keys()
    const full = await fullTrie([a, ...other.slice(0, 60)])
    // Only the root node is known: the key's path runs into a node nobody sent.
    const sparse = new MerklePatriciaTrie({ useKeyHashing: true })
    const proof = await createMerkleProof(full, a)
    await updateMPTFromMerkleProof(sparse, proof.slice(0, 1), false)
    sparse.root(full.root())
    await expect(writeProven(sparse, a, Uint8Array.from([0x07]))).rejects.toThrow('Missing node in DB')
  })

  it('a deletion that collapses onto a sibling no proof brought: a key routed into it is found and proven', async () => {
    const { a, b, other } = keys()
    const full = await fullTrie([a, b, ...other.slice(0, 60)])
    const base = await fullTrie([a, b, ...other.slice(0, 60)])
    const sparse = await sparseFrom(full, [a])
    const asked: number[][] = []
    // What the upstream's eth_getProof gives at the base block for the key the search finds.
    const prove = async (prefix: number[]) => {
      asked.push(prefix)
      const key = await findKeyRoutedTo(prefix, 32)
      if (key) await updateMPTFromMerkleProof(sparse, await createMerkleProof(base, key), false)
    }
    await full.del(a)
    await writeProven(sparse, a, null, prove)
    expect(bytesToHex(sparse.root())).toBe(bytesToHex(full.root()))
    // The sibling sits under b's first nibble and the nibble after it where a and b part.
    const first = keccak_256(b)[0]! >> 4
    expect(asked).toHaveLength(1)
    expect(asked[0]![0]).toBe(first)
  })

  it('a key routed under a path: its hash starts with those nibbles; too deep a path is not searched', async () => {
    const key = (await findKeyRoutedTo([0xa, 0x3, 0x7], 20))!
    expect(key).toHaveLength(20)
    expect(bytesToHex(keccak_256(key)).slice(2, 5)).toBe('a37')
    expect(await findKeyRoutedTo([1, 2, 3, 4, 5], 32)).toBeUndefined()
  })

  it('a prover that cannot bring the node leaves the deletion an error, not a root', async () => {
    const { a, b, other } = keys()
    const full = await fullTrie([a, b, ...other.slice(0, 60)])
    const sparse = await sparseFrom(full, [a])
    await expect(writeProven(sparse, a, null, async () => {})).rejects.toThrow('Missing node in DB')
  })
})
