import { describe, expect, it } from 'vitest'
import type { Hex } from '../../types/hex.js'
import { type BorSignerBlock, mergeWorkerSigners } from './mergeWorkerSigners.js'

const hash = (n: number, variant = 0): Hex => `0x${(n * 16 + variant).toString(16).padStart(64, '0')}`
const signer = (n: number): Hex => `0x${n.toString(16).padStart(40, '0')}`
/** The owner's headers a walk applies: blocks 101…110. */
const headers = Array.from({ length: 10 }, (_, i) => ({ number: BigInt(101 + i), hash: hash(101 + i) }))
const block = (n: number, h = hash(n), s: Hex | null = signer(n)): BorSignerBlock => ({
  number: `0x${n.toString(16)}`,
  hash: h,
  signer: s,
})

describe('mergeWorkerSigners', () => {
  it("takes each signer for the owner's header of the block's number and hash; a block without one is left to the owner", () => {
    const into = new Map<Hex, Hex>()
    mergeWorkerSigners(headers, [block(103), block(104, hash(104), null), block(105)], into)
    expect([...into]).toEqual([
      [hash(103), signer(103)],
      [hash(105), signer(105)],
    ])
  })

  it("a block whose hash is not the owner's header's is refused naming the block, and nothing of that answer is taken", () => {
    const into = new Map<Hex, Hex>()
    expect(() => mergeWorkerSigners(headers, [block(106), block(107, hash(107, 1)), block(108)], into)).toThrow(
      `block 107 is ${hash(107)} but the worker that recovered its signer for a Bor snapshot walk had ${hash(107, 1)}: the worker's answer is refused`,
    )
    expect(into.size).toBe(0)
    // Another block's hash under this number is refused the same way.
    expect(() => mergeWorkerSigners(headers, [block(109, hash(110))], into)).toThrow(/^block 109 is /)
    expect(into.size).toBe(0)
  })

  it('a block outside the walk, or a malformed entry, is refused', () => {
    const into = new Map<Hex, Hex>()
    expect(() => mergeWorkerSigners(headers, [block(111)], into)).toThrow(
      'block 111: a worker recovered its signer for a Bor snapshot walk that applies blocks 101 to 110 only',
    )
    expect(() => mergeWorkerSigners(headers, [block(100)], into)).toThrow(/^block 100: /)
    for (const bad of [
      { ...block(102), signer: '0x1234' },
      { ...block(102), hash: hash(102).toUpperCase() },
      { ...block(102), number: 102 },
      null,
    ])
      expect(() => mergeWorkerSigners(headers, [bad as never], into)).toThrow(/are malformed/)
    expect(into.size).toBe(0)
  })
})
