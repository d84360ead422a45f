import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FixtureNode, startFixtureNode } from '../tools/fixture-node/startFixtureNode.js'
import { type BeaconFixture, createBeaconFixture, executionPayloadHeaderOf } from './src/beaconFixture.js'
import { type Proxy, createProxy } from './src/createProxy.js'
import { fetchBlocks } from './src/fetchBlocks.js'
import { forgeBlock } from './src/forgeBlock.js'
import { HISTORY_GENESIS } from './src/historyGenesis.js'
import { startConsensusDaemon } from './src/startConsensusDaemon.js'

// Blocks far below the consensus-anchored head, proven through EIP-2935's history contract: a
// storage proof at a block names the hash of any of the 8,191 blocks before it, so a block 20,000
// back takes three hops (at the head, 8,191 below it, 16,382 below it), each a proof and a header
// fetched by the proven hash; one 8,192 back, a hop and the one block below it, whose header is
// asked by number beside the hop's. The chain is the fixture node's: empty Prague blocks built from the
// system calls alone (mineEmptyBlocks, the same chain the VM builds), since anvil mines 20,000
// blocks in ~225 s here and, by default, serves no state that far back.

const BACK = [1, 100, 8_192, 20_000] as const
/** The beacon chain's head slot; its optimistic head carries block OFFSET + HEAD - 1. */
const HEAD = 40
const TOTAL = 20_200
const OFFSET = TOTAL - HEAD
const HISTORY_WINDOW = 8191
const quantity = (n: number) => `0x${n.toString(16)}`

let node: FixtureNode
let proxy: Proxy
let beacon: BeaconFixture
let served: Awaited<ReturnType<BeaconFixture['serve']>>
let built: { blocks: number; seconds: number }

beforeAll(async () => {
  node = await startFixtureNode({ genesis: HISTORY_GENESIS })
  const started = performance.now()
  await node.chain.mineEmptyBlocks(TOTAL)
  built = { blocks: TOTAL, seconds: (performance.now() - started) / 1000 }
  const carried = await fetchBlocks(node.url, OFFSET, OFFSET + HEAD)
  beacon = createBeaconFixture({ executionAt: (slot) => executionPayloadHeaderOf(carried[slot]!) })
  beacon.head = HEAD
  served = await beacon.serve()
  proxy = await createProxy(node.url)
}, 180_000)
afterAll(async () => {
  await served?.close()
  await proxy?.stop()
  await node?.close()
})

describe('blocks far below the anchored head', () => {
  it('1, 100, 8,192 and 20,000 below it are proven, the last two in a hop per 8,191 blocks; round trips counted', async () => {
    const head = OFFSET + HEAD - 1
    const costs: Record<number, { roundTrips: number; proofs: number; headers: number }> = {}
    for (const back of BACK) {
      // A daemon of its own for each (nothing proven by the one before), its head already fetched.
      const { call, upstream } = await startConsensusDaemon({ beacon, beaconUrl: served.url, upstreamUrl: proxy.url })
      expect((await call('eth_blockNumber', [])).result).toBe(quantity(head))
      const n = head - back
      upstream.resetStats()
      const from = proxy.log.length
      const out = await call('eth_getBlockByNumber', [quantity(n), false])
      expect(out.error).toBeUndefined()
      expect(out.result!.hash).toBe(node.chain.byNumber(BigInt(n))!.hash)
      const calls = proxy.log.slice(from)
      costs[back] = {
        roundTrips: upstream.stats().roundTrips,
        proofs: calls.filter((c) => c.method === 'eth_getProof').length,
        headers: calls.filter(
          (c) => c.method === 'eth_getBlockByNumber' || (c.method === 'eth_getBlockByHash' && c.params[1] === false),
        ).length,
      }
      await upstream.close()
    }
    // 1 and 100 back: the parent walk — one batch of headers by number, block n's own among them,
    // then the links — and the block's body: 2 round trips each (100 back was 3: n's header after the walk).
    expect(costs[1]!.proofs).toBe(0)
    expect(costs[100]!.proofs).toBe(0)
    expect(costs[100]!.headers).toBe(100)
    // 8,192 back: the proof at the head names block head − 8,191; its header (by that hash) and block
    // n's (by number, linked as its parent) in one round trip, then the body: 3 (was 4).
    expect(costs[8_192]!.proofs).toBe(1)
    expect(costs[8_192]!.headers).toBe(2)
    expect(Object.fromEntries(BACK.map((b) => [b, costs[b]!.roundTrips]))).toEqual({
      1: 2,
      100: 2,
      8192: 3,
      20000: 5,
    })
    // 20,000 back: a storage proof per hop — at the head, 8,191 and 16,382 below it — and the header
    // each names, fetched by its hash (no header is asked by number); each hop's proof leaves with
    // the previous hop's header: a round trip a hop, then the last header and the block's body.
    const hops = Math.ceil(20_000 / HISTORY_WINDOW)
    expect(costs[20_000]!.proofs).toBe(hops)
    expect(costs[20_000]!.headers).toBe(hops)
    expect(costs[20_000]!.roundTrips).toBeLessThanOrEqual(hops + 2)
    console.log(
      `chain of ${built.blocks} blocks built in ${built.seconds.toFixed(1)} s; round trips to prove a block ${BACK.map((b) => `${b}: ${costs[b]!.roundTrips} (${costs[b]!.proofs} proofs, ${costs[b]!.headers} headers)`).join(', ')} below the anchored head`,
    )
  }, 120_000)

  it('8,192 below it: a header the upstream forges for that number beside the hop is not taken — the hop’s parent link names the real one', async () => {
    const head = OFFSET + HEAD - 1
    const n = head - 8_192
    const [real] = await fetchBlocks(node.url, n, n)
    const forged = forgeBlock(real!, { extraData: '0x0bad' })
    proxy.hooks.transform = (c, result) =>
      c.method === 'eth_getBlockByNumber' && c.params[0] === quantity(n) ? forged : result
    const { call, upstream } = await startConsensusDaemon({ beacon, beaconUrl: served.url, upstreamUrl: proxy.url })
    try {
      const from = proxy.log.length
      const out = await call('eth_getBlockByNumber', [quantity(n), false])
      expect(out.error).toBeUndefined()
      expect(out.result!.hash).toBe(real!.hash)
      expect(out.result!.extraData).toBe(real!.extraData)
      // The forged one was asked by number and set aside; the real one fetched by the hash the link names.
      const calls = proxy.log.slice(from)
      expect(calls.some((c) => c.method === 'eth_getBlockByNumber' && c.params[0] === quantity(n))).toBe(true)
      expect(
        calls.some((c) => c.method === 'eth_getBlockByHash' && c.params[0] === real!.hash && c.params[1] === false),
      ).toBe(true)
    } finally {
      delete proxy.hooks.transform
      await upstream.close()
    }
  })

  it('mineEmptyBlocks builds the chain the VM builds (its blocks hash the same)', async () => {
    const [byVm, bySystemCalls] = await Promise.all([
      startFixtureNode({ genesis: HISTORY_GENESIS }),
      startFixtureNode({ genesis: HISTORY_GENESIS }),
    ])
    try {
      for (let i = 0; i < 12; i++) await byVm.chain.mineBlock({}, [])
      await bySystemCalls.chain.mineEmptyBlocks(12)
      for (let n = 1n; n <= 12n; n++) expect(bySystemCalls.chain.byNumber(n)!.hash).toBe(byVm.chain.byNumber(n)!.hash)
    } finally {
      await Promise.all([byVm.close(), bySystemCalls.close()])
    }
  })
})
