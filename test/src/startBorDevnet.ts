import { createLegacyTx } from '@ethereumjs/tx'
import { type FixtureNode, fixtureRules, startFixtureNode } from '../../tools/fixture-node/startFixtureNode.js'
import { address, funder, genesis, plan } from './borDevnet.js'

/**
 * The tests' Bor devnet on a fixture node (see borDevnet.ts), with two value transfers (blocks 3 and
 * 22, before and after Napoli); `blocks` makes it longer (the bench's).
 */
export async function startBorDevnet(blocks = plan.blocks): Promise<FixtureNode> {
  const rules = fixtureRules(genesis)
  const transfer = (nonce: number, n: bigint) =>
    createLegacyTx(
      { nonce, gasPrice: 10n ** 9n, gasLimit: 21_000n, to: address(3), value: 1n },
      { common: rules.commonFor(n, 0n) },
    ).sign(funder)
  return startFixtureNode({
    genesis,
    bor: { ...plan, blocks, transactions: { 3: [transfer(0, 3n)], 22: [transfer(1, 22n)] } },
  })
}
