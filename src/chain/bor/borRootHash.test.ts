import { concatBytes, hexToBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { describe, expect, it } from 'vitest'
import { type CheckpointBlock, borRootHash } from './borRootHash.js'

const block = (n: number): CheckpointBlock => ({
  number: BigInt(n),
  timestamp: BigInt(1_700_000_000 + 2 * n),
  transactionsTrie: keccak_256(new Uint8Array([n, 1])),
  receiptTrie: keccak_256(new Uint8Array([n, 2])),
})
/** A leaf written out by hand: two 32-byte big-endian words, then the two roots. */
function leaf(b: CheckpointBlock): Uint8Array {
  const word = (v: bigint) => hexToBytes(`0x${v.toString(16).padStart(64, '0')}`)
  return keccak_256(concatBytes(word(b.number), word(b.timestamp), b.transactionsTrie, b.receiptTrie))
}
const pair = (a: Uint8Array, b: Uint8Array) => keccak_256(concatBytes(a, b))
const ZERO = new Uint8Array(32)

describe('borRootHash', () => {
  it('a single block is its own root (its leaf, not hashed again)', () => {
    expect(borRootHash([block(7)])).toEqual(leaf(block(7)))
  })

  it('pads with zero leaves to a power of two, parents unsorted', () => {
    const [a, b, c] = [block(1), block(2), block(3)]
    expect(borRootHash([a, b, c])).toEqual(pair(pair(leaf(a), leaf(b)), pair(leaf(c), ZERO)))
    expect(borRootHash([b, a])).toEqual(pair(leaf(b), leaf(a)))
    expect(borRootHash([b, a])).not.toEqual(borRootHash([a, b]))
  })

  it('five blocks: eight leaves, three levels', () => {
    const bs = [1, 2, 3, 4, 5].map(block)
    const l = bs.map(leaf)
    const left = pair(pair(l[0]!, l[1]!), pair(l[2]!, l[3]!))
    const right = pair(pair(l[4]!, ZERO), pair(ZERO, ZERO))
    expect(borRootHash(bs)).toEqual(pair(left, right))
  })
})
