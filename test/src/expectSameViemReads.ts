import type { Address, PublicClient } from 'viem'
import { expect } from 'vitest'

/**
 * viem reading through edgetrace (`ours`) and straight from the node (`theirs`), in Node or in the
 * page: the same head, block `blockNumber` (hash, state root, transactions) and `address`'s balance.
 */
export async function expectSameViemReads(
  ours: PublicClient,
  theirs: PublicClient,
  { blockNumber, address }: { blockNumber: bigint; address: Address },
): Promise<void> {
  expect(await ours.getBlockNumber()).toBe(await theirs.getBlockNumber())
  const [a, b] = await Promise.all([ours.getBlock({ blockNumber }), theirs.getBlock({ blockNumber })])
  expect(a.hash).toBe(b.hash)
  expect(a.stateRoot).toBe(b.stateRoot)
  expect(a.transactions).toEqual(b.transactions)
  expect(await ours.getBalance({ address })).toBe(await theirs.getBalance({ address }))
}
