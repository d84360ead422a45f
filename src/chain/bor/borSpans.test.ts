import { describe, expect, it } from 'vitest'
import { spanEnd, spanIdAt, spanStart } from './borSpans.js'

describe('Heimdall spans', () => {
  it('span 0 is blocks 0…255, each later one 6,400 blocks (Erigon span_id.go)', () => {
    expect([0n, 255n, 256n, 6655n, 6656n].map(spanIdAt)).toEqual([0n, 0n, 1n, 1n, 2n])
    expect([0n, 1n, 2n].map(spanStart)).toEqual([0n, 256n, 6656n])
    expect([0n, 1n, 2n].map(spanEnd)).toEqual([255n, 6655n, 13055n])
    // A mainnet block: span 10,731 (68,676,558 = 256 + 10,730 × 6,400 + 2,302).
    expect(spanIdAt(68_676_558n)).toBe(10_731n)
  })
})
