import { hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import type { Hex } from '../../types/hex.js'
import {
  type BorValidator,
  type BorValidatorSet,
  incrementProposerPriority,
  newValidatorSet,
  parseValidatorBytes,
  signerSuccession,
  updatedValidatorSet,
} from './borValidatorSet.js'

// Expected values worked out by hand from Tendermint's proposer-priority rules as bor's valset writes
// them (rescale to 2·T, subtract the floor average, add powers, the highest pays T; ties → lower address).
const A = `0x${'0a'.repeat(20)}` as Hex
const B = `0x${'0b'.repeat(20)}` as Hex
const C = `0x${'0c'.repeat(20)}` as Hex
const D = `0x${'0d'.repeat(20)}` as Hex
const v = (address: Hex, power: number, priority = 0): BorValidator => ({
  address,
  power: BigInt(power),
  priority: BigInt(priority),
  id: 0n,
})
const priorities = (set: BorValidatorSet) => set.validators.map((x) => [x.address, Number(x.priority)])

describe('Bor validator set', () => {
  it('equal powers: the proposer goes round in address order', () => {
    const set = newValidatorSet([v(C, 1), v(A, 1), v(B, 1)])
    expect(set.validators.map((x) => x.address)).toEqual([A, B, C])
    expect(set.proposer?.address).toBe(A)
    expect(priorities(set)).toEqual([
      [A, -2],
      [B, 1],
      [C, 1],
    ])
    const order: Hex[] = []
    for (let i = 0; i < 4; i++) {
      incrementProposerPriority(set)
      order.push(set.proposer!.address)
    }
    expect(order).toEqual([B, C, A, B])
  })

  it('powers 1 and 2: the heavier proposes twice in three', () => {
    const set = newValidatorSet([v(A, 1), v(B, 2)])
    const order: Hex[] = [set.proposer!.address]
    for (let i = 0; i < 5; i++) {
      incrementProposerPriority(set)
      order.push(set.proposer!.address)
    }
    expect(order).toEqual([B, A, B, B, A, B])
  })

  it('the average is floored (Go big.Int division), the rescale truncated toward zero (int64)', () => {
    const floored: BorValidatorSet = { validators: [v(A, 1, -1), v(B, 1, 0)], proposer: undefined, total: 0n }
    incrementProposerPriority(floored)
    expect(priorities(floored)).toEqual([
      [A, 1],
      [B, 0],
    ])
    expect(floored.proposer?.address).toBe(B)
    const rescaled: BorValidatorSet = { validators: [v(A, 1, 101), v(B, 1, -100)], proposer: undefined, total: 0n }
    incrementProposerPriority(rescaled)
    expect(priorities(rescaled)).toEqual([
      [A, 0],
      [B, 0],
    ])
    expect(rescaled.proposer?.address).toBe(A)
  })

  it('a sprint end that drops C and adds D: D joins at −(T + T/8) of the updated total, then one increment', () => {
    const set = newValidatorSet([v(A, 1), v(B, 1), v(C, 1)])
    const next = updatedValidatorSet(set, [v(A, 1), v(B, 1), v(D, 1)])
    incrementProposerPriority(next)
    expect(next.proposer?.address).toBe(B)
    expect(priorities(next)).toEqual([
      [A, 1],
      [B, 1],
      [D, -1],
    ])
    // The set it came from is unchanged.
    expect(priorities(set)).toEqual([
      [A, -2],
      [B, 1],
      [C, 1],
    ])
  })

  it('succession after the proposer, wrapping round the set', () => {
    const set = newValidatorSet([v(A, 1), v(B, 1), v(C, 1)])
    incrementProposerPriority(set) // proposer B
    expect([A, B, C].map((x) => signerSuccession(set, x))).toEqual([2, 0, 1])
    expect(signerSuccession(set, D)).toBeUndefined()
  })

  it('validator bytes: 40-byte records of address and 20-byte power', () => {
    const bytes = hexToBytes(`0x${'0a'.repeat(20)}${'00'.repeat(19)}05${'0b'.repeat(20)}${'00'.repeat(18)}0100`)
    expect(parseValidatorBytes(bytes)).toEqual([v(A, 5), v(B, 256)])
    expect(() => parseValidatorBytes(new Uint8Array(41))).toThrow('invalid validators bytes')
  })
})
