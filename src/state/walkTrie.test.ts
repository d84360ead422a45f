import { createMPT, createMerkleProof } from '@ethereumjs/mpt'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { keccak_256 as keccak256 } from '@noble/hashes/sha3.js'
import { describe, expect, it } from 'vitest'
import type { Hex } from '../types/hex.js'
import { walkTrie } from './walkTrie.js'

/** A trie of `count` keys (hashed, as the state trie's), with every node of every key's proof by hash. */
async function trieOf(count: number, valueOf: (i: number) => Uint8Array) {
  const trie = await createMPT({ useKeyHashing: true })
  const keys = Array.from({ length: count }, (_, i) => hexToBytes(`0x${(i * 7919 + 1).toString(16).padStart(40, '0')}`))
  for (const [i, key] of keys.entries()) await trie.put(key, valueOf(i))
  const nodes = new Map<string, Uint8Array>()
  for (const key of keys)
    for (const node of await createMerkleProof(trie, key)) nodes.set(bytesToHex(keccak256(node)), node)
  return { root: trie.root(), keys, nodes }
}

describe('walkTrie', () => {
  it('finds every value of a trie from its nodes by hash, as ethereumjs reads it, and proves other keys absent', async () => {
    // Short values make nodes under 32 bytes, which their parents embed.
    for (const valueOf of [(i: number) => new Uint8Array([i + 1]), (i: number) => new Uint8Array(40).fill(i + 1)]) {
      const { root, keys, nodes } = await trieOf(300, valueOf)
      for (const [i, key] of keys.entries())
        expect(walkTrie(root, keccak256(key), (h) => nodes.get(h))).toEqual({ value: valueOf(i) })
      for (const absent of ['0x01', '0xdead', '0x'.padEnd(42, 'f')])
        expect(walkTrie(root, keccak256(hexToBytes(absent as Hex)), (h) => nodes.get(h))).toEqual({ value: null })
    }
  })

  it('names the first node it lacks, and goes on once given it', async () => {
    const { root, keys, nodes } = await trieOf(50, (i) => new Uint8Array(33).fill(i))
    const have = new Map<string, Uint8Array>()
    const hashed = keccak256(keys[7]!)
    let asked = 0
    for (;;) {
      const walk = walkTrie(root, hashed, (h) => have.get(h))
      if ('value' in walk) {
        expect(walk.value).toEqual(new Uint8Array(33).fill(7))
        break
      }
      asked++
      expect(walk.missing).toBe(asked === 1 ? bytesToHex(root) : walk.missing)
      have.set(walk.missing, nodes.get(walk.missing)!)
    }
    expect(asked).toBeGreaterThan(1)
  })

  it('an empty trie holds nothing; a node that is not a trie node is refused', () => {
    const empty = hexToBytes('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421')
    expect(walkTrie(empty, new Uint8Array(32), () => undefined)).toEqual({ value: null })
    const root = new Uint8Array(32).fill(1)
    expect(() => walkTrie(root, new Uint8Array(32), () => hexToBytes('0x83010203'))).toThrow(/not a list/)
  })
})
