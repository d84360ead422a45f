import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { type FixtureNode, startFixtureNode } from '../tools/fixture-node/startFixtureNode.js'
import { rpcResult } from './src/rpc.js'

/*
 * ots_getBlockDetails where anvil cannot show it: a proof-of-work chain (Besu's trace-chain, Istanbul,
 * served by the fixture node). Its `issuance` must equal the reward entries Besu recorded for the same
 * blocks (test/fixtures/besu/trace-chain/trace-specs/trace-block), and its `totalFees` — before London,
 * Σ gas used × the transaction's gas price (the reference's delegateBlockFees: `txn.GetTipCap()`, a
 * legacy transaction's gas price) — the fixture node's receipts and transactions.
 */

const root = new URL('./fixtures/besu/trace-chain/', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, root))

let node: FixtureNode
let edge: RunningEdgetrace
beforeAll(async () => {
  const genesis = JSON.parse(read('chain-data/genesis.json').toString('utf8')) as Record<string, unknown>
  node = await startFixtureNode({ genesis, blocks: new Uint8Array(read('chain-data/blocks.bin')) })
  edge = await startEdgetrace({ upstream: node.url, port: 0, api: ['eth', 'ots'], genesis: genesis as never })
}, 60_000)
afterAll(async () => {
  await edge?.close()
  await node?.close()
})

type Json = any

describe('ots_getBlockDetails on a proof-of-work chain', () => {
  it('issuance equals the rewards Besu recorded, totalFees the receipts × gas prices, for every block', async () => {
    const head = Number(await rpcResult(node.url, 'eth_blockNumber'))
    expect(head).toBe(33)
    let fees = 0n
    for (let n = 0; n <= head; n++) {
      const tag = `0x${n.toString(16)}`
      const spec = JSON.parse(
        read(`trace-specs/trace-block/trace_block_0x${n.toString(16).toUpperCase()}.json`).toString('utf8'),
      )
      const rewards = (spec.response.result ?? []).filter((t: Json) => t.type === 'reward')
      const sum = (kind: string) =>
        rewards
          .filter((t: Json) => t.action.rewardType === kind)
          .reduce((s: bigint, t: Json) => s + BigInt(t.action.value), 0n)
      const details = await rpcResult(edge.url, 'ots_getBlockDetails', [n])
      const hex = (v: bigint) => `0x${v.toString(16)}`
      expect(details.issuance, `block ${n}`).toEqual({
        blockReward: hex(sum('block')),
        uncleReward: hex(sum('uncle')),
        issuance: hex(sum('block') + sum('uncle')),
      })
      const block = await rpcResult(node.url, 'eth_getBlockByNumber', [tag, true])
      const receipts = await Promise.all(
        block.transactions.map((t: Json) => rpcResult(node.url, 'eth_getTransactionReceipt', [t.hash])),
      )
      const total = block.transactions.reduce(
        (s: bigint, t: Json, i: number) => s + BigInt(receipts[i].gasUsed) * BigInt(t.gasPrice),
        0n,
      )
      fees += total
      expect(details.totalFees, `block ${n}`).toBe(hex(total))
      expect(details.block.transactionCount).toBe(block.transactions.length)
      expect(details.block.hash).toBe(block.hash)
    }
    expect(fees).toBeGreaterThan(0n)
  })
})
