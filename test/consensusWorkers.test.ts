import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import type { BeaconFixture } from './src/beaconFixture.js'
import type { Proxy, ProxyHooks } from './src/createProxy.js'
import { forgeBlock as forge } from './src/forgeBlock.js'
import { DEV_ACCOUNT, rpc, rpcResult } from './src/rpc.js'
import { type AnvilBeacon, startAnvilBeacon } from './src/startAnvilBeacon.js'

// The Node server in trust mode consensus (a light client of a made-up beacon chain whose blocks
// carry a real anvil's): its worker threads — the range pool and the JavaScript-tracer pool — resolve
// blocks through the main thread's light client, and a beacon node that stops answering costs a
// request its deadline, never the server.

type Block = Record<string, string>
/** The beacon chain's head slot: its optimistic head carries block HEAD - 1; anvil runs ahead of it. */
const HEAD = 80
const MINED = 90
const SECONDS_PER_SLOT = 2
const quantity = (n: number) => `0x${n.toString(16)}`

let chain: AnvilBeacon
let proxy: Proxy
let beacon: BeaconFixture
let served: AnvilBeacon['served']
let real: Block[]
let root: string
/** While set, the beacon node takes requests and never answers them. */
let hang = false

beforeAll(async () => {
  chain = await startAnvilBeacon({
    mined: MINED,
    head: HEAD,
    // A transfer every eighth block, so that ranges have traces.
    mine: async (anvil) => {
      for (let n = 1; n <= MINED; n++) {
        if (n % 8 === 0)
          await rpcResult(anvil.url, 'eth_sendTransaction', [
            { from: DEV_ACCOUNT, to: `0x${n.toString(16).padStart(40, '0')}`, value: '0x1' },
          ])
        else await rpcResult(anvil.url, 'anvil_mine', ['0x1'])
      }
    },
    // A beacon chain on this clock: its head slot is now.
    beacon: { genesisTime: Math.floor(Date.now() / 1000) - HEAD * SECONDS_PER_SLOT, secondsPerSlot: SECONDS_PER_SLOT },
    before: () => (hang ? new Promise<void>(() => {}) : Promise.resolve()),
  })
  ;({ proxy, beacon, served, real } = chain)
  root = `0x${Buffer.from(beacon.rootAt(8)).toString('hex')}`
}, 120_000)
afterAll(() => chain?.stop())

async function server(
  hooks: ProxyHooks,
  options: { workers?: { threads: number; minBlocks: number }; evmTimeoutMs?: number } = {},
): Promise<RunningEdgetrace & { call: (method: string, params: unknown[]) => Promise<any> }> {
  proxy.hooks = hooks
  const running = await startEdgetrace({
    upstream: proxy.url,
    beacon: { url: served.url, checkpoint: root },
    hardfork: 'prague',
    port: 0,
    api: ['eth', 'trace', 'debug'],
    ...(options.workers ? { workers: options.workers } : {}),
    ...(options.evmTimeoutMs !== undefined ? { engine: { evmTimeoutMs: options.evmTimeoutMs } } : {}),
  })
  return Object.assign(running, { call: (method: string, params: unknown[]) => rpc(running.url, method, params) })
}

describe('worker threads under trust mode consensus', () => {
  it('trace_filter fans out to the range workers, which take the anchored blocks and not the upstream’s forged ones', async () => {
    // The honest answer, from the main thread alone (ranges of under 1,000 blocks stay there).
    const plain = await server({}, { workers: { threads: 2, minBlocks: 1000 } })
    const filter = [{ fromBlock: '0x10', toBlock: quantity(HEAD - 1) }]
    let honest: unknown
    try {
      expect(plain.engine.rangeWorkers?.size).toBe(2)
      const answer = await plain.call('trace_filter', filter)
      expect(answer.error).toBeUndefined()
      honest = answer.result
      // A transfer every eighth block from 16 to 79.
      expect((honest as { transactionHash: string }[]).length).toBe(8)
    } finally {
      await plain.close()
    }
    // Block 50 and 51 by number are made up (their hashes recomputed): a worker taking the upstream's
    // word on a number would trace them, or fail to find their bodies.
    const forged = new Map([50, 51].map((n) => [quantity(n), forge(real[n]!, { extraData: '0x0bad' })]))
    const edge = await server(
      { transform: (c, result) => (c.method === 'eth_getBlockByNumber' && forged.get(String(c.params[0]))) || result },
      { workers: { threads: 2, minBlocks: 8 } },
    )
    try {
      expect(edge.engine.rangeWorkers?.size).toBe(2)
      const started = proxy.log.length
      const answer = await edge.call('trace_filter', filter)
      expect(answer.error).toBeUndefined()
      expect(answer.result).toEqual(honest)
      // The forged blocks were offered (asked by number during the walks) and not taken.
      expect(proxy.log.slice(started).some((c) => c.method === 'eth_getBlockByNumber' && c.params[0] === '0x32')).toBe(
        true,
      )
    } finally {
      await edge.close()
    }
  }, 120_000)

  it('a JavaScript tracer is served, on the anchored head; a forged head is refused there naming both hashes', async () => {
    const tracer = {
      tracer:
        '{n: 0, step: function () { this.n++ }, result: function (ctx) { return ctx.block }, fault: function () {}}',
    }
    const edge = await server({})
    try {
      expect(edge.engine.jsTracerWorkers).toBeDefined()
      const out = await edge.call('debug_traceCall', [{ from: DEV_ACCOUNT, to: DEV_ACCOUNT }, 'latest', tracer])
      expect(out.error).toBeUndefined()
      // The anchored head is block HEAD - 1, where anvil's own latest is MINED.
      expect(out.result).toBe(HEAD - 1)
    } finally {
      await edge.close()
    }
    // The upstream makes up the head (its hash recomputed): the tracer's thread asks the main
    // thread's light client which block is the head, and refuses the header that does not hash to it.
    const head = real[HEAD - 1]!
    const forgedHead = forge(head, { stateRoot: `0x${'ab'.repeat(32)}` })
    const lying = await server({
      transform: (c, result) =>
        (c.method === 'eth_getBlockByHash' && String(c.params[0]).toLowerCase() === head.hash) ||
        (c.method === 'eth_getBlockByNumber' && (c.params[0] === 'latest' || c.params[0] === quantity(HEAD - 1)))
          ? forgedHead
          : result,
    })
    try {
      const out = await lying.call('debug_traceCall', [{ from: DEV_ACCOUNT, to: DEV_ACCOUNT }, 'latest', tracer])
      expect(out.result).toBeUndefined()
      // Both hashes named: the one asked for, and the forged one's (in the message or as data.gotHash).
      expect(JSON.stringify(out.error)).toContain(head.hash)
      expect(JSON.stringify(out.error)).toContain(forgedHead.hash)
    } finally {
      await lying.close()
    }
  }, 120_000)
})

describe('a beacon node that stops answering', () => {
  it('costs the request its deadline (its sync given up), the server keeps serving, and the next sync starts afresh', async () => {
    const edge = await server({}, { evmTimeoutMs: 2000 })
    try {
      expect((await edge.call('eth_blockNumber', [])).result).toBe(quantity(HEAD - 1))
      hang = true
      // The next slot: the head is then a slot old and the next request syncs the light client.
      await new Promise((resolve) => setTimeout(resolve, SECONDS_PER_SLOT * 1000 + 100))
      const started = Date.now()
      const [timedOut, chainId] = await Promise.all([
        edge.call('eth_blockNumber', []),
        // Meanwhile the server answers what needs no anchor.
        new Promise((resolve) => setTimeout(resolve, 300)).then(() => edge.call('eth_chainId', [])),
      ])
      expect(timedOut.error?.message).toMatch(/timeout/)
      expect(Date.now() - started).toBeLessThan(5000)
      expect(chainId.result).toBe('0x7a69')
      // The beacon node answers again (the requests it took while hanging never will): the next
      // request's sync is a new one, not the hung one it would otherwise wait on.
      hang = false
      await new Promise((resolve) => setTimeout(resolve, 200))
      const again = await edge.call('eth_blockNumber', [])
      expect(again.error).toBeUndefined()
      expect(again.result).toBe(quantity(HEAD - 1))
    } finally {
      hang = false
      await edge.close()
    }
  }, 60_000)
})
