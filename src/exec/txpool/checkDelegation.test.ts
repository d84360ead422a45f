import { describe, expect, it } from 'vitest'
import type { Hex } from '../../types/hex.js'
import { checkDelegation } from './checkDelegation.js'
import { createTxPool } from './createTxPool.js'
import type { PoolTransaction } from './poolTransaction.js'

// geth's EIP-7702 pool limits on hand-made entries; test/txpool.test.ts sends signed ones through anvil.
const A = '0x00000000000000000000000000000000000000aa' as Hex
const B = '0x00000000000000000000000000000000000000bb' as Hex
let counter = 0
const entry = (sender: Hex, nonce: number, authorities: Hex[] = []): PoolTransaction => ({
  tx: {} as never,
  hash: `0x${(++counter).toString(16).padStart(64, '0')}` as Hex,
  sender,
  nonce: BigInt(nonce),
  gas: 21_000n,
  feeCap: 100n,
  tip: 1n,
  blobFeeCap: 0n,
  blobGas: 0n,
  maxCost: 2_100_000n,
  local: true,
  addedAt: counter,
  authorities,
})

describe('checkDelegation', () => {
  it('leaves an account with no code and no pooled authorization alone', () => {
    const pool = createTxPool()
    pool.add(entry(A, 5))
    expect(() => checkDelegation(pool, entry(A, 7), { nonce: 5n, hasCode: false })).not.toThrow()
  })

  it('gives a delegated account (code at the head) its next nonce only, then replacements', () => {
    const pool = createTxPool()
    expect(() => checkDelegation(pool, entry(A, 6), { nonce: 5n, hasCode: true })).toThrow(
      'gapped-nonce tx from delegated accounts',
    )
    expect(() => checkDelegation(pool, entry(A, 5), { nonce: 5n, hasCode: true })).not.toThrow()
    pool.add(entry(A, 5))
    expect(() => checkDelegation(pool, entry(A, 6), { nonce: 5n, hasCode: true })).toThrow(
      'in-flight transaction limit reached for delegated accounts',
    )
    expect(() => checkDelegation(pool, entry(A, 5), { nonce: 5n, hasCode: true })).not.toThrow()
  })

  it('treats an authorization waiting in the pool as a delegation, until its transaction leaves', () => {
    const pool = createTxPool()
    const setCode = entry(B, 0, [A])
    pool.add(setCode)
    expect(pool.hasAuthority(A)).toBe(true)
    pool.add(entry(A, 0))
    expect(() => checkDelegation(pool, entry(A, 1), { nonce: 0n, hasCode: false })).toThrow(
      'in-flight transaction limit reached for delegated accounts',
    )
    pool.remove(setCode.hash)
    expect(pool.hasAuthority(A)).toBe(false)
    expect(() => checkDelegation(pool, entry(A, 1), { nonce: 0n, hasCode: false })).not.toThrow()
  })

  it('refuses an authorization from an account with more than one transaction in the pool', () => {
    const pool = createTxPool()
    pool.add(entry(A, 0))
    expect(() => checkDelegation(pool, entry(B, 0, [A]), { nonce: 0n, hasCode: false })).not.toThrow()
    pool.add(entry(A, 1))
    expect(() => checkDelegation(pool, entry(B, 0, [A]), { nonce: 0n, hasCode: false })).toThrow(
      'authority already reserved',
    )
  })

  it('counts the pool version up with every change', () => {
    const pool = createTxPool()
    const v = pool.version()
    const tx = entry(A, 0)
    pool.add(tx)
    pool.remove(tx.hash)
    expect(pool.version()).toBe(v + 2)
  })
})
