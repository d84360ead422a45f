import { afterAll, describe, expect, it } from 'vitest'
import { type RunningEdgetrace, startEdgetrace } from '../../src/node/startEdgetrace.js'
import { type FixtureNode, startFixtureNode } from '../../tools/fixture-node/startFixtureNode.js'
import { type RebuiltBlock, type RebuiltTransaction, loadRebuiltBlock } from '../src/erigonRpcTestsCase.js'
import { firstDifference } from '../src/firstDifference.js'
import { rpc } from '../src/rpc.js'

// Mainnet transactions recorded by the reference daemon itself (erigontech/rpc-tests; SOURCE.md),
// through the whole product: each transaction's recorded pre-state becomes a chain served by a
// fixture node (the pre-state as genesis alloc at block N − 1, block N mined empty with the header
// fields derived from the recorded outputs), and an edgetrace server in front of it answers
// trace_call(the transaction's call, ["trace","stateDiff"], N) from state it fetched with
// eth_getProof and verified. The corpus records no signed transactions, so the transaction runs as
// the call it makes: trace_call charges fees and advances the nonce as a transaction does, on the
// state at the end of block N (= the transaction's pre-state) with block N's header.
//
// The answer must equal Erigon's trace_replayBlockTransactions entry for that transaction exactly
// (output, every trace entry, the whole stateDiff, key order included), except:
//  N1. `transactionHash`: a call has none (trace_call's result has no such key); dropped from the
//      recorded side.

const BLOCKS: [string, string][] = [
  ['test_35', 'test_37'], // block 17073191 (0x1048427), 119 transactions
  ['test_36', 'test_38'], // block 17073192 (0x1048428), 162 transactions
]

// Transactions that read what the rebuilt chain cannot have, found by tracing them
// (debug_traceCall's struct logs): the hashes of real ancestors (the rebuilt block's parent is a
// synthetic genesis) and prevRandao (not recorded).
const READS_UNRECORDED_CONTEXT: Record<string, string> = {
  '0x39bae1253a69f76e5e27aadbd1f25966efc0ddfdab4e0e68663378df09c32197':
    'reads BLOCKHASH of a real ancestor (the rebuilt chain has none): a hash derived from it differs',
}

const running: { node?: FixtureNode | undefined; edge?: RunningEdgetrace | undefined } = {}
afterAll(async () => {
  await running.edge?.close()
  await running.node?.close()
})

async function traceRebuilt(
  block: RebuiltBlock,
  tx: RebuiltTransaction,
): Promise<{ result?: unknown; error?: unknown }> {
  const { header } = block
  const genesis = {
    config: { chainId: 1 },
    number: `0x${(block.number - 1n).toString(16)}`,
    timestamp: `0x${(header.timestamp - 12n).toString(16)}`,
    gasLimit: '0x1c9c380',
    difficulty: '0x0',
    baseFeePerGas: `0x${header.baseFeePerGas.toString(16)}`,
    alloc: tx.prestate,
  }
  const node = await startFixtureNode({ genesis, hardfork: 'shanghai' })
  running.node = node
  try {
    await node.chain.mineBlock(
      {
        coinbase: header.coinbase as never,
        timestamp: header.timestamp,
        gasLimit: 30_000_000n,
        difficulty: 0n,
        mixHash: new Uint8Array(32),
        baseFeePerGas: header.baseFeePerGas,
      },
      [],
    )
    const edge = await startEdgetrace({ upstream: node.url, port: 0, api: ['eth', 'trace'], hardfork: 'shanghai' })
    running.edge = edge
    try {
      expect(edge.engine.options.unverified).toBe(false)
      return await rpc(edge.url, 'trace_call', [tx.call, ['trace', 'stateDiff'], `0x${block.number.toString(16)}`])
    } finally {
      await edge.close()
      running.edge = undefined
    }
  } finally {
    await node.close()
    running.node = undefined
  }
}

describe('erigontech/rpc-tests mainnet transactions rebuilt from their recorded pre-state', () => {
  for (const [prestate, replay] of BLOCKS) {
    const block = loadRebuiltBlock(prestate, replay)
    for (const tx of block.transactions) {
      const name = `block ${block.number} tx ${tx.index} ${tx.hash}`
      if ('unbuildable' in tx.call) {
        it.skip(`${name} — ${tx.call.unbuildable}`, () => {})
        continue
      }
      const unrecorded = READS_UNRECORDED_CONTEXT[tx.hash]
      if (unrecorded) {
        it.skip(`${name} — ${unrecorded}`, () => {})
        continue
      }
      it(name, async () => {
        const out = await traceRebuilt(block, tx)
        expect(out.error).toBeUndefined()
        const { transactionHash: _n1, ...expected } = tx.expected
        expect(firstDifference(out.result, expected)).toBeUndefined()
        expect(JSON.stringify(out.result)).toBe(JSON.stringify(expected))
      })
    }
  }
})
