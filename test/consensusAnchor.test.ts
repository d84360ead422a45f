import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEdgetrace } from '../src/createEdgetrace.js'
import type { AnvilInstance } from '../src/node/devnet/startAnvil.js'
import { createUpstream } from '../src/upstream/createUpstream.js'
import { type BeaconFixture, createBeaconFixture, executionPayloadHeaderOf } from './src/beaconFixture.js'
import type { Proxy, ProxyHooks } from './src/createProxy.js'
import { fetchBlocks } from './src/fetchBlocks.js'
import { forgeBlock as forge } from './src/forgeBlock.js'
import { DEV_ACCOUNT, rpc, rpcResult } from './src/rpc.js'
import { runCli } from './src/runCli.js'
import { type AnvilBeacon, startAnvilBeacon } from './src/startAnvilBeacon.js'
import { startConsensusDaemon } from './src/startConsensusDaemon.js'

// Which block is real, from consensus: a beacon chain (test/src/beaconFixture.ts) whose blocks carry
// a real anvil's execution blocks as their payload headers, a light client following it, and
// edgetrace resolving tags and numbers through it against that anvil behind a proxy that forges
// headers — self-consistent ones, their hash recomputed, which today's upstream word would take.

type Block = Record<string, string>
const HEAD = 40
/** anvil runs ahead of the beacon chain's head: its own latest is never what is served. */
const MINED = 60

let chain: AnvilBeacon
let anvil: AnvilInstance
let proxy: Proxy
let beacon: BeaconFixture
let served: AnvilBeacon['served']
let real: Block[]

beforeAll(async () => {
  chain = await startAnvilBeacon({ mined: MINED, head: HEAD })
  ;({ anvil, proxy, beacon, served, real } = chain)
})
afterAll(() => chain?.stop())

async function daemon(hooks: ProxyHooks = {}, engine: { subscriptionPollMs?: number } = {}) {
  proxy.hooks = hooks
  const { call, upstream } = await startConsensusDaemon({
    beacon,
    beaconUrl: served.url,
    upstreamUrl: proxy.url,
    api: ['eth', 'debug'],
    engine,
  })
  return { call: call<unknown>, upstream }
}

describe('blocks resolved through a beacon light client', () => {
  it("tags are consensus' word: latest the optimistic head's block, finalized and safe the finalized one's", async () => {
    const { call } = await daemon()
    // anvil's own latest is block 60; the beacon chain's optimistic head carries block 39.
    expect((await call('eth_blockNumber', [])).result).toBe('0x27')
    expect(((await call('eth_getBlockByNumber', ['latest', false])).result as Block).hash).toBe(real[39]!.hash)
    expect(((await call('eth_getBlockByNumber', ['finalized', false])).result as Block).hash).toBe(real[16]!.hash)
    expect(((await call('eth_getBlockByNumber', ['safe', false])).result as Block).hash).toBe(real[16]!.hash)
    expect((await call('eth_getBalance', [DEV_ACCOUNT, 'latest'])).result).toBe(
      await rpcResult(anvil.url, 'eth_getBalance', [DEV_ACCOUNT, '0x27']),
    )
  })

  it("refuses the upstream's own head made up with its hash recomputed — the case the upstream's word serves — naming both hashes", async () => {
    const forgedHead = forge(real[39]!, { stateRoot: `0x${'ab'.repeat(32)}` })
    const { call } = await daemon({
      transform: (c, result) =>
        (c.method === 'eth_getBlockByHash' && String(c.params[0]).toLowerCase() === real[39]!.hash) ||
        (c.method === 'eth_getBlockByNumber' && (c.params[0] === 'latest' || c.params[0] === '0x27'))
          ? forgedHead
          : result,
    })
    const out = await call('eth_getBalance', [DEV_ACCOUNT, 'latest'])
    expect(out.result).toBeUndefined()
    expect(JSON.stringify(out.error!.data)).toContain(real[39]!.hash)
    expect(JSON.stringify(out.error!.data)).toContain(forgedHead.hash!)
  })

  it('a block asked by number is the anchored head’s ancestor by parent links, whatever the upstream says is that number', async () => {
    const forged5 = forge(real[5]!, { extraData: '0x0bad' })
    const { call, upstream } = await daemon({
      transform: (c, result) => (c.method === 'eth_getBlockByNumber' && c.params[0] === '0x5' ? forged5 : result),
    })
    upstream.resetStats()
    const block = (await call('eth_getBlockByNumber', ['0x5', false])).result as Block
    expect(block.hash).toBe(real[5]!.hash)
    const { roundTrips } = upstream.stats()
    // The walk fetches the stretch by number in one batch, then follows (and checks) parent links.
    expect(roundTrips).toBeLessThanOrEqual(4)
    // Past the anchored head there is no block yet, whatever the upstream has.
    const past = await call('eth_getBlockByNumber', ['0x28', false])
    expect(past.error?.message ?? JSON.stringify(past.result)).toMatch(/past the consensus-anchored head|null/)
  })

  it("a block filter follows the anchored head: the blocks consensus moved over, none of the upstream's beyond it", async () => {
    const { call } = await daemon({}, { subscriptionPollMs: 50 })
    const id = (await call('eth_newBlockFilter', [])).result
    try {
      beacon.head = HEAD + 4
      const seen: string[] = []
      for (let i = 0; i < 100 && !seen.includes(real[43]!.hash!); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        seen.push(...((await call('eth_getFilterChanges', [id])).result as string[]))
      }
      expect(seen).toEqual([real[40]!.hash, real[41]!.hash, real[42]!.hash, real[43]!.hash])
    } finally {
      beacon.head = HEAD
    }
  })

  it('edgetrace_trust says which mode answers and what anchors it, whatever --http.api names', async () => {
    const { call } = await daemon()
    const root = `0x${Buffer.from(beacon.rootAt(8)).toString('hex')}`
    expect((await call('edgetrace_trust', [])).result).toEqual({
      mode: 'consensus',
      checkpoint: root,
      beaconNode: served.url,
      finalized: {
        slot: '0x10',
        beaconRoot: `0x${Buffer.from(beacon.rootAt(16)).toString('hex')}`,
        blockNumber: '0x10',
        blockHash: real[16]!.hash,
      },
      optimistic: {
        slot: '0x27',
        beaconRoot: `0x${Buffer.from(beacon.rootAt(39)).toString('hex')}`,
        blockNumber: '0x27',
        blockHash: real[39]!.hash,
      },
      syncCommitteePeriod: '0x0',
      participation: { signed: 32, of: 32 },
    })
    // Without an anchor: the upstream's word, or a checkpoint's links.
    const plain = await createEdgetrace({
      upstream: createUpstream({ url: anvil.url }),
      hardfork: 'prague',
      api: ['eth'],
    })
    const asked = JSON.parse(
      (await plain.handler.handleText('{"jsonrpc":"2.0","id":1,"method":"edgetrace_trust","params":[]}'))!,
    )
    expect(asked.result).toMatchObject({ mode: 'upstream', checkpoint: null, finalized: null, optimistic: null })
    const pinned = await createEdgetrace({
      upstream: createUpstream({ url: anvil.url }),
      hardfork: 'prague',
      api: ['eth'],
      checkpoint: real[10]!.hash,
    })
    const linked = JSON.parse(
      (await pinned.handler.handleText('{"jsonrpc":"2.0","id":1,"method":"edgetrace_trust","params":[]}'))!,
    )
    expect(linked.result).toMatchObject({ mode: 'checkpoint', checkpoint: real[10]!.hash })
  })

  it('a beacon node that lies stops the answers (naming the check) rather than serving an unanchored head', async () => {
    const { call } = await daemon()
    beacon.lie = 'signature'
    beacon.head = HEAD + 12
    try {
      const out = await call('eth_blockNumber', [])
      expect(out.error?.message).toMatch(/signature does not verify/)
    } finally {
      beacon.lie = undefined
      beacon.head = HEAD
    }
  })
})

describe('--beacon.upstream on the command line', () => {
  it('starts in trust mode consensus, says what anchors it, and answers from the anchored head', async () => {
    // A beacon chain whose clock is this one: its head slot is now.
    const live = createBeaconFixture({
      executionAt: (slot) => executionPayloadHeaderOf(real[slot]!),
      genesisTime: Math.floor(Date.now() / 1000) - HEAD * 6,
    })
    live.head = HEAD
    const liveServed = await live.serve()
    const root = `0x${Buffer.from(live.rootAt(8)).toString('hex')}`
    const datadir = join(tmpdir(), `edgetrace-consensus-${process.pid}`)
    const cli = await runCli(
      [
        '--upstream',
        anvil.url,
        '--beacon.upstream',
        liveServed.url,
        '--checkpoint',
        root,
        '--hardfork',
        'prague',
        '--http.port',
        '0',
        // Its pin goes to a directory of its own, not the user's.
        '--datadir',
        datadir,
      ],
      /JSON-RPC at http:\/\/\S+|open http:\/\/\S+/,
    )
    try {
      expect(cli.output).toMatch(
        /trust: {6}consensus — a light client of the beacon node http:\/\/127\.0\.0\.1:\d+, from the beacon block root 0x[0-9a-f]{64}:/,
      )
      expect(cli.output).toMatch(
        /finalized slot 16 \(block 16\), head slot 39 \(block 39\), 32\/32 of the sync committee signed/,
      )
      const url = cli.output.match(/http:\/\/127\.0\.0\.1:\d+(?=\/| )/g)!.find((u) => !u.startsWith(liveServed.url))!
      expect(await rpcResult(url, 'eth_blockNumber')).toBe('0x27')
      const tracer = await rpc(url, 'debug_traceCall', [
        { to: DEV_ACCOUNT },
        'latest',
        { tracer: '{result: function () { return 1 }, fault: function () {}}' },
      ])
      // JavaScript tracers run on their threads, which resolve blocks through the same light client.
      expect(tracer.error).toBeUndefined()
      expect(tracer.result).toBe(1)
    } finally {
      cli.kill()
      await liveServed.close()
      await rm(datadir, { recursive: true, force: true })
    }
  }, 60_000)

  it('refuses --trust consensus without a beacon node, saying what to give', async () => {
    const cli = await runCli(['--upstream', anvil.url, '--trust', 'consensus'], /never/)
    expect(cli.code).toBe(1)
    expect(cli.output).toMatch(/--trust consensus needs --beacon.upstream URL: the beacon node/)
  })
})

describe('far blocks below the anchored head', () => {
  it('are proven through the EIP-2935 history contract with one storage proof, where the parent walk would fetch every header', async () => {
    // The beacon chain's slots carry anvil's blocks from OFFSET on. (A block over 8,191 back takes a
    // hop a window; anvil takes 70 s to mine 9,000 blocks, so the test stays within one window.)
    const OFFSET = MINED + 1_600
    await rpcResult(anvil.url, 'anvil_mine', [`0x${(OFFSET + HEAD - MINED).toString(16)}`])
    const far = await fetchBlocks(anvil.url, OFFSET, OFFSET + HEAD)
    const chain = createBeaconFixture({ executionAt: (slot) => executionPayloadHeaderOf(far[slot]!) })
    chain.head = HEAD
    const farServed = await chain.serve()
    try {
      const { call, upstream } = await startConsensusDaemon({
        beacon: chain,
        beaconUrl: farServed.url,
        upstreamUrl: anvil.url,
      })
      const head = OFFSET + HEAD - 1
      expect((await call('eth_blockNumber', [])).result).toBe(`0x${head.toString(16)}`)
      const costs: Record<string, number> = {}
      for (const back of [1, 100, 1_500]) {
        const n = head - back
        upstream.resetStats()
        const block = (await call('eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).result!
        costs[back] = upstream.stats().roundTrips
        expect(block.hash).toBe(
          await rpcResult(anvil.url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false]).then((b: Block) => b.hash),
        )
      }
      // 1 and 100 back: one batch of headers by number, then the links; 1,500 back: the history
      // contract's account and slot proven at the anchored head in one request, then the header by
      // the proven hash, then the block's body — measured 3, where the walk (past its 256-header
      // batch) would fetch the 1,500 headers one by one.
      expect(costs[1]).toBeLessThanOrEqual(2)
      expect(costs[100]).toBeLessThanOrEqual(3)
      expect(costs[1_500]).toBeLessThanOrEqual(3)
      console.log(
        `round trips to prove a block 1, 100 and 1,500 below the anchored head: ${costs[1]}, ${costs[100]}, ${costs[1_500]}`,
      )
    } finally {
      await farServed.close()
    }
  }, 120_000)
})
