import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import type { RunningEdgetrace } from '../src/node/startEdgetrace.js'
import { txByLabel, withDevnetAndEdgetrace } from './src/devnet.js'
import { rpcResult } from './src/rpc.js'

// overlay_getLogs replays blocks on verified state: over the whole devnet — every transaction type,
// EIP-7702 authorizations and calls into delegated EOAs included — a replay without overrides must
// give back exactly the logs the chain recorded.

let devnet: Devnet
let edge: RunningEdgetrace
let stop: () => Promise<void>
beforeAll(async () => {
  ;({ devnet, edge, stop } = await withDevnetAndEdgetrace({ api: ['eth', 'overlay'] }))
}, 120_000)
afterAll(() => stop?.())

const hex = (n: number) => `0x${n.toString(16)}`

describe('overlay_getLogs over the devnet', () => {
  it('without overrides, equals eth_getLogs over every devnet block', async () => {
    const first = txByLabel(devnet, 'deploy Token').blockNumber
    const last = Math.max(...devnet.transactions.map((t) => t.blockNumber))
    const range = { fromBlock: hex(first), toBlock: hex(last) }
    const recorded = await rpcResult(edge.url, 'eth_getLogs', [range])
    expect(recorded.length).toBeGreaterThan(10)
    expect(await rpcResult(edge.url, 'overlay_getLogs', [range, {}])).toEqual(recorded)
  }, 120_000)

  it('replays the blocks of EIP-7702 transactions (authorizations, then a call into a delegated EOA)', async () => {
    const type4 = devnet.transactions.filter((t) => t.type === 4)
    expect(type4.length).toBeGreaterThan(0)
    const delegatedCall = txByLabel(devnet, 'call into an EIP-7702-delegated EOA')
    for (const block of new Set([...type4.map((t) => t.blockNumber), delegatedCall.blockNumber])) {
      const range = { fromBlock: hex(block), toBlock: hex(block) }
      const recorded = await rpcResult(edge.url, 'eth_getLogs', [range])
      expect(await rpcResult(edge.url, 'overlay_getLogs', [range, {}]), `block ${block}`).toEqual(recorded)
    }
  }, 120_000)
})
