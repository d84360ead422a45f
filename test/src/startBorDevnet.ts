import { bigIntToBytes, bytesToHex, generateAddress, privateToAddress } from '@ethereumjs/util'
import { createLegacyTx } from '@ethereumjs/tx'
import type { Hex } from '../../src/types/hex.js'
import { type FixtureNode, fixtureRules, startFixtureNode } from '../../tools/fixture-node/startFixtureNode.js'
import { address, funder, genesis, named, plan, predict } from './borDevnet.js'
import { createSet } from './borProposerModel.js'

/** Init code of a contract whose every call stores COINBASE in slot 0 (runtime 41 6000 55 00). */
const COINBASE_RECORDER_INIT: Hex = '0x6441600055006000526005601bf3'

/** Init code that reads an address's balance (PUSH20 address, BALANCE, POP, STOP): 100 gas warm, 2,600 cold. */
export const balanceProbe = (address: string): Hex => `0x73${address.slice(2)}315000`

/** The author of a devnet block, as the model predicts it. */
const authorOf = (n: number) => predict({ number: 0, set: createSet(named(0)) }, n).get(n)!.signer

/** Where the funder's fourth transaction (block 40) deploys it. */
export const coinbaseRecorder = (): Hex => bytesToHex(generateAddress(privateToAddress(funder), bigIntToBytes(3n)))

/**
 * The tests' Bor devnet on a fixture node (see borDevnet.ts), with two value transfers (blocks 3 and
 * 22, before and after Napoli; 36, beside a state sync), a contract recording COINBASE deployed at block 40 and called at 41;
 * `blocks` makes it longer (the bench's).
 */
export async function startBorDevnet(blocks = plan.blocks): Promise<FixtureNode> {
  const rules = fixtureRules(genesis)
  const send = (nonce: number, n: bigint, fields: { to?: Hex; value?: bigint; data?: Hex; gasLimit?: bigint }) =>
    createLegacyTx(
      { nonce, gasPrice: 10n ** 9n, gasLimit: 21_000n, ...fields },
      { common: rules.commonFor(n, 0n) },
    ).sign(funder)
  return startFixtureNode({
    genesis,
    bor: {
      ...plan,
      blocks,
      transactions: {
        3: [send(0, 3n, { to: address(3), value: 1n })],
        22: [send(1, 22n, { to: address(3), value: 1n })],
        40: [send(3, 40n, { data: COINBASE_RECORDER_INIT, gasLimit: 100_000n })],
        41: [send(4, 41n, { to: coinbaseRecorder(), gasLimit: 100_000n })],
        36: [send(2, 36n, { to: address(2), value: 2n })],
        44: [send(5, 44n, { data: balanceProbe(authorOf(44)), gasLimit: 100_000n })],
        48: [send(6, 48n, { data: balanceProbe(`0x${'0'.repeat(40)}`), gasLimit: 100_000n })],
      },
    },
  })
}
