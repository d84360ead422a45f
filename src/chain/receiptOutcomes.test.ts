import { RLP } from '@ethereumjs/rlp'
import { concatBytes, hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { receiptOutcomes } from './receiptOutcomes.js'

const bloom = new Uint8Array(256)
const legacy = (outcome: Uint8Array, cumulative: number) => RLP.encode([outcome, cumulative, bloom, []])
const typed = (type: number, outcome: Uint8Array, cumulative: number) =>
  concatBytes(new Uint8Array([type]), legacy(outcome, cumulative))

describe('receiptOutcomes', () => {
  it("gives each transaction's gas (the step in cumulative gas) and status, typed and legacy receipts alike", () => {
    const receipts = [
      legacy(hexToBytes('0x01'), 21_000),
      typed(2, new Uint8Array(), 71_000),
      typed(4, hexToBytes('0x01'), 71_500),
    ]
    expect(receiptOutcomes(receipts)).toEqual([
      { gasUsed: 21_000n, status: 1n },
      { gasUsed: 50_000n, status: 0n },
      { gasUsed: 500n, status: 1n },
    ])
  })

  it('has no status for a receipt with a state root (before Byzantium), and refuses what is no receipt', () => {
    expect(receiptOutcomes([legacy(new Uint8Array(32).fill(7), 21_000)])).toEqual([
      { gasUsed: 21_000n, status: undefined },
    ])
    expect(() => receiptOutcomes([new Uint8Array()])).toThrow()
    expect(() => receiptOutcomes([RLP.encode(hexToBytes('0x1234'))])).toThrow()
    // Cumulative gas going down is no block's receipts.
    expect(() => receiptOutcomes([legacy(hexToBytes('0x01'), 50_000), legacy(hexToBytes('0x01'), 21_000)])).toThrow()
  })
})
