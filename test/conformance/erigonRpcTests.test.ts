import { afterAll, describe, expect, it } from 'vitest'
import { type RunningEdgetrace, startEdgetrace } from '../../src/node/startEdgetrace.js'
import { type FixtureNode, startFixtureNode } from '../../tools/fixture-node/startFixtureNode.js'
import { type RebuiltBlock, type RebuiltTransaction, loadRebuiltBlock } from '../src/erigonRpcTestsCase.js'
import { firstDifference } from '../src/firstDifference.js'
import { rpc } from '../src/rpc.js'

// Mainnet transactions recorded by the reference daemon itself (erigontech/rpc-tests; SOURCE.md),
// through the whole product: each transaction's recorded pre-state becomes a chain served by a
// fixture node (the pre-state as genesis alloc at block N − 1, block N mined empty with the header
// fields derived from the recorded outputs), and an edgetrace server in front of it traces the
// transaction from state it fetched with eth_getProof and verified. The corpus records no signed
// transactions, so the transaction runs as the call it makes (trace_call, debug_traceCall: fees
// charged and the sender's nonce advanced as in a transaction) on the state at the end of block N
// (= the transaction's pre-state) with block N's header.
//
// Each answer must equal Erigon's recorded one exactly (key order included), except:
//  N1. `transactionHash`: a call has none (trace_call's result has no such key); dropped from the
//      recorded trace_replayBlockTransactions entry.
//  N2. prestateTracer diffMode: Erigon lists an account that exists neither before nor after the
//      transaction (its full pre-state leaves it out; the transaction only asked for its code size)
//      in `post` as `{"codeHash": "0x00…00"}` (1 of these 281 transactions); geth's prestateTracer, and
//      edgetrace, leave such an account out. Dropped from the recorded side.

// [full pre-state, trace_replayBlockTransactions, diffMode pre-state] of one block.
const BLOCKS = [
  loadRebuiltBlock('test_35', 'test_37', 'test_32'), // block 17073191 (0x1048427), 119 transactions
  loadRebuiltBlock('test_36', 'test_38', 'test_33'), // block 17073192 (0x1048428), 162 transactions
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

/** Serves `tx`'s pre-state as block N (see above) and asks an edgetrace server in front of it. */
async function traceRebuilt(
  block: RebuiltBlock,
  tx: RebuiltTransaction,
  method: 'trace_call' | 'debug_traceCall',
  params: unknown[],
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
    const edge = await startEdgetrace({
      upstream: node.url,
      port: 0,
      api: ['eth', 'trace', 'debug'],
      hardfork: 'shanghai',
    })
    running.edge = edge
    try {
      expect(edge.engine.options.unverified).toBe(false)
      const [first, ...rest] = params
      return await rpc(edge.url, method, [
        first,
        ...(method === 'trace_call' ? rest : []),
        blockTag(block),
        ...(method === 'debug_traceCall' ? rest : []),
      ])
    } finally {
      await edge.close()
      running.edge = undefined
    }
  } finally {
    await node.close()
    running.node = undefined
  }
}

const ZERO_HASH = `0x${'0'.repeat(64)}`

/** N2: the recorded diff without post entries of accounts that never existed. */
function withoutPhantomAccounts(diff: NonNullable<RebuiltTransaction['expectedDiff']>) {
  const post = Object.fromEntries(
    Object.entries(diff.post).filter(([address, account]) => {
      const only = Object.entries(account as Record<string, unknown>)
      return !(
        diff.pre[address] === undefined &&
        only.length === 1 &&
        only[0]![0] === 'codeHash' &&
        only[0]![1] === ZERO_HASH
      )
    }),
  )
  return { post, pre: diff.pre }
}

const blockTag = (block: RebuiltBlock) => `0x${block.number.toString(16)}`

/** Each rebuildable transaction of the recorded blocks as a case; the others skipped with their reason. */
function eachTransaction(
  run: (block: RebuiltBlock, tx: RebuiltTransaction & { call: Record<string, string> }) => Promise<void>,
) {
  for (const block of BLOCKS) {
    for (const tx of block.transactions) {
      const name = `block ${block.number} tx ${tx.index} ${tx.hash}`
      const reason = 'unbuildable' in tx.call ? tx.call.unbuildable : READS_UNRECORDED_CONTEXT[tx.hash]
      if (reason !== undefined) it.skip(`${name} — ${reason}`, () => {})
      else it(name, () => run(block, tx as RebuiltTransaction & { call: Record<string, string> }))
    }
  }
}

describe('erigontech/rpc-tests mainnet transactions: trace_call (trace, stateDiff) vs trace_replayBlockTransactions', () => {
  eachTransaction(async (block, tx) => {
    const out = await traceRebuilt(block, tx, 'trace_call', [tx.call, ['trace', 'stateDiff']])
    expect(out.error).toBeUndefined()
    const { transactionHash: _n1, ...expected } = tx.expected
    expect(firstDifference(out.result, expected)).toBeUndefined()
    expect(JSON.stringify(out.result)).toBe(JSON.stringify(expected))
  })
})

describe('erigontech/rpc-tests mainnet transactions: debug_traceCall prestateTracer diffMode vs debug_traceBlockByNumber', () => {
  eachTransaction(async (block, tx) => {
    const config = { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }
    const out = await traceRebuilt(block, tx, 'debug_traceCall', [tx.call, config])
    expect(out.error).toBeUndefined()
    const expected = withoutPhantomAccounts(tx.expectedDiff!)
    expect(firstDifference(out.result, expected)).toBeUndefined()
    expect(JSON.stringify(out.result)).toBe(JSON.stringify(expected))
  })
})
