import { expect, it } from 'vitest'
import type { Hex } from '../../types/hex.js'
import { feeOrder } from './pendingState.js'
import type { PoolTransaction } from './poolTransaction.js'

// The order a builder takes pending transactions in: each sender's by nonce, the best-paying next.
const entry = (sender: Hex, nonce: number, tip: bigint, feeCap: bigint, addedAt: number) =>
  ({ sender, nonce: BigInt(nonce), tip, feeCap, addedAt }) as PoolTransaction

it('takes the best effective tip among the senders’ next transactions, never a nonce before a lower one', () => {
  const A = '0x00000000000000000000000000000000000000aa' as Hex
  const B = '0x00000000000000000000000000000000000000bb' as Hex
  const pending = new Map<Hex, PoolTransaction[]>([
    // A's first pays little, its second much: the second still waits for the first.
    [A, [entry(A, 0, 1n, 100n, 1), entry(A, 1, 50n, 100n, 2)]],
    // B's tip is capped by its fee cap over the base fee (10): effective 5.
    [B, [entry(B, 0, 40n, 15n, 3), entry(B, 1, 2n, 100n, 4)]],
  ])
  const order = feeOrder(pending, 10n).map((t) => `${t.sender === A ? 'A' : 'B'}${t.nonce}`)
  expect(order).toEqual(['B0', 'B1', 'A0', 'A1'])
})
