import { describe, expect, it } from 'vitest'
import type { Hex } from '../../types/hex.js'
import { DEFAULT_TXPOOL_LIMITS, type PoolEnvironment, createTxPool } from './createTxPool.js'
import type { PoolTransaction } from './poolTransaction.js'

// The pool's rules on hand-made entries (the reference daemon's promote, its replacement bump and
// limits); test/txpool.test.ts runs them through anvil.
const A = '0x00000000000000000000000000000000000000aa' as Hex
const B = '0x00000000000000000000000000000000000000bb' as Hex
let counter = 0
function entry(sender: Hex, nonce: number, over: Partial<PoolTransaction> = {}): PoolTransaction {
  const feeCap = over.feeCap ?? 100n
  const gas = over.gas ?? 21_000n
  return {
    tx: {} as never,
    hash: `0x${(++counter).toString(16).padStart(64, '0')}` as Hex,
    sender,
    nonce: BigInt(nonce),
    gas,
    feeCap,
    tip: over.tip ?? 1n,
    blobFeeCap: 0n,
    blobGas: 0n,
    maxCost: gas * feeCap,
    local: true,
    addedAt: counter,
    authorities: [],
    ...over,
  }
}
const env = (accounts: [Hex, bigint, bigint][], over: Partial<PoolEnvironment> = {}): PoolEnvironment => ({
  baseFee: 10n,
  blobBaseFee: 1n,
  gasLimit: 30_000_000n,
  accounts: new Map(accounts.map(([a, nonce, balance]) => [a, { nonce, balance }])),
  ...over,
})
const nonces = (list: PoolTransaction[] | undefined) => list?.map((t) => Number(t.nonce))

describe('classify', () => {
  it('splits by gap, cumulative funds, gas limit and fee cap; mined nonces leave', () => {
    const pool = createTxPool()
    for (const n of [0, 1, 2, 4]) pool.add(entry(A, n))
    pool.add(entry(B, 5, { feeCap: 5n }))
    pool.add(entry(B, 6))
    // A: nonce 1 (0 mined); funds for two transactions only. B: nonce 5, a cap under the base fee first.
    const out = pool.classify(
      env([
        [A, 1n, 2n * 21_000n * 100n],
        [B, 5n, 10n ** 18n],
      ]),
    )
    expect(nonces(out.pending.get(A))).toEqual([1, 2])
    expect(nonces(out.queued.get(A))).toEqual([4])
    expect(pool.of(A).map((t) => Number(t.nonce))).toEqual([1, 2, 4])
    // The lowest cap so far counts: B's 6 pays enough, but 5 before it does not.
    expect(nonces(out.baseFee.get(B))).toEqual([5, 6])
    const poor = pool.classify(
      env([
        [A, 1n, 21_000n * 100n],
        [B, 5n, 10n ** 18n],
      ]),
    )
    expect(nonces(poor.pending.get(A))).toEqual([1])
    expect(nonces(poor.queued.get(A))).toEqual([2, 4])
    const tight = pool.classify(
      env(
        [
          [A, 1n, 10n ** 18n],
          [B, 5n, 10n ** 18n],
        ],
        { gasLimit: 21_000n },
      ),
    )
    expect(tight.pending.size).toBe(0)
  })

  it('keeps a blob transaction out of pending while its blob fee cap is under the blob base fee', () => {
    const pool = createTxPool()
    pool.add(entry(A, 0, { blobGas: 131_072n, blobFeeCap: 3n }))
    expect(nonces(pool.classify(env([[A, 0n, 10n ** 18n]], { blobBaseFee: 2n })).pending.get(A))).toEqual([0])
    expect(nonces(pool.classify(env([[A, 0n, 10n ** 18n]], { blobBaseFee: 4n })).baseFee.get(A))).toEqual([0])
  })

  it('evicts the lowest-paying remote transactions over a limit, each sender from its highest nonce; local ones stay', () => {
    const pool = createTxPool({ ...DEFAULT_TXPOOL_LIMITS, pendingSlots: 2 })
    pool.add(entry(A, 0, { feeCap: 50n, local: false }))
    pool.add(entry(A, 1, { feeCap: 40n, local: false }))
    pool.add(entry(B, 0, { feeCap: 20n }))
    const out = pool.classify(
      env([
        [A, 0n, 10n ** 18n],
        [B, 0n, 10n ** 18n],
      ]),
    )
    expect(nonces(out.pending.get(A))).toEqual([0])
    expect(nonces(out.pending.get(B))).toEqual([0])
    expect(pool.size()).toBe(2)
  })
})

describe('add', () => {
  it('replaces for 10% more tip and fee cap (blob transactions: 100%, the blob fee cap too)', () => {
    const pool = createTxPool()
    const first = entry(A, 0, { tip: 10n, feeCap: 100n })
    pool.add(first)
    expect(() => pool.add(first)).toThrow('already known')
    expect(() => pool.add(entry(A, 0, { tip: 10n, feeCap: 109n }))).toThrow('replacement transaction underpriced')
    expect(() => pool.add(entry(A, 0, { tip: 10n, feeCap: 110n }))).toThrow('replacement transaction underpriced')
    expect(pool.add(entry(A, 0, { tip: 11n, feeCap: 110n }))).toBe(first)
    expect(pool.size()).toBe(1)
    const blob = entry(B, 0, { tip: 10n, feeCap: 100n, blobGas: 131_072n, blobFeeCap: 10n })
    pool.add(blob)
    expect(() => pool.add(entry(B, 0, { tip: 20n, feeCap: 200n, blobGas: 131_072n, blobFeeCap: 19n }))).toThrow(
      'replacement transaction underpriced',
    )
    expect(pool.add(entry(B, 0, { tip: 20n, feeCap: 200n, blobGas: 131_072n, blobFeeCap: 20n }))).toBe(blob)
  })

  it('limits how many of one sender’s transactions come from the upstream', () => {
    const pool = createTxPool({ ...DEFAULT_TXPOOL_LIMITS, accountSlots: 2 })
    pool.add(entry(A, 0, { local: false }))
    pool.add(entry(A, 1, { local: false }))
    expect(() => pool.add(entry(A, 2, { local: false }))).toThrow('txpool is full')
    expect(() => pool.add(entry(A, 2))).not.toThrow()
  })
})

describe('a full pool between heads', () => {
  it('lets a better-paying remote transaction displace the cheapest remote one, refuses a cheaper one, keeps locals', () => {
    const pool = createTxPool({ ...DEFAULT_TXPOOL_LIMITS, pendingSlots: 1, baseFeeSlots: 1, queuedSlots: 1 })
    const cheap = entry(A, 0, { local: false, feeCap: 50n })
    pool.add(cheap)
    pool.add(entry(A, 1, { local: false, feeCap: 200n }))
    pool.add(entry(B, 0, { local: false, feeCap: 100n }))
    expect(() => pool.add(entry(B, 1, { local: false, feeCap: 60n }))).toThrow('txpool is full')
    // A's last nonce is the cheapest sender-tail (A1 pays 200; B0 100): B0 goes for a 150 payer.
    pool.add(entry(B, 5, { local: false, feeCap: 150n }))
    expect(pool.size()).toBe(3)
    pool.add(entry(A, 7, { local: true, feeCap: 1n }))
    expect(pool.size()).toBe(4)
    expect(pool.get(cheap.hash)).toBeDefined()
  })
})
