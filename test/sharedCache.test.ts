import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import type { SharedTierStats } from '../src/state/createSharedTier.js'
import { type Proxy, createProxy } from './src/createProxy.js'
import { txByLabel } from './src/devnet.js'
import { rpcResult } from './src/rpc.js'
import { runCli } from './src/runCli.js'
import { type RedisServer, startRedis } from '../tools/fleet/startRedis.js'

// The shared verified cache tier (--cache.redis) on a real redis-server: servers in front of the
// same anvil (each through its own counting proxy) share what they proved, none trusts what it
// reads there, and none needs it to answer.

const PREFIX = 'edgetrace:v1:'
/** The state an answer is proven from: what a shared tier saves a server from asking. */
const STATE_METHODS = ['eth_getProof', 'eth_getCode'] as const

let devnet: Devnet
let redis: RedisServer
let client: Redis
const started: { edge: RunningEdgetrace; proxy: Proxy }[] = []
/** What the servers logged (the shared cache's going away and coming back). */
const logged: string[] = []

beforeAll(async () => {
  ;[devnet, redis] = await Promise.all([startDevnet(), startRedis()])
  client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 })
  client.on('error', () => {})
  await client.connect()
})
afterAll(async () => {
  for (const { edge, proxy } of started.splice(0)) {
    await edge.close()
    await proxy.stop()
  }
  client?.disconnect()
  await redis?.stop()
  await devnet?.stop()
})

/** A server with the shared tier, in front of anvil through a proxy that counts its calls. */
async function server(cacheRedis = redis.url) {
  const proxy = await createProxy(devnet.anvil.url)
  const edge = await startEdgetrace({
    upstream: proxy.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'debug', 'trace', 'erigon'],
    cacheRedis,
    log: (line) => logged.push(line),
  })
  started.push({ edge, proxy })
  return { edge, proxy, stats: () => edge.engine.persistent!.store.stats() as SharedTierStats }
}

const stateCalls = (proxy: Proxy) => STATE_METHODS.reduce((n, m) => n + (proxy.calls.get(m) ?? 0), 0)

/** The traces a wallet and an explorer ask for one transaction: its calls, its state diff, its struct logs. */
async function traces(url: string, hash: string) {
  return {
    calls: await rpcResult(url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }]),
    diff: await rpcResult(url, 'debug_traceTransaction', [
      hash,
      { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
    ]),
    replay: await rpcResult(url, 'trace_replayTransaction', [hash, ['trace', 'stateDiff']]),
  }
}

describe('--cache.redis: one verified cache for many servers', () => {
  const label = 'nested token calls (transferFrom, transfer, balanceOf)'

  it("a second server's first cold trace asks the upstream for none of the state the first proved", async () => {
    await client.flushdb()
    const tx = txByLabel(devnet, label)
    const first = await server()
    const expected = await traces(first.edge.url, tx.hash)
    expect(stateCalls(first.proxy)).toBeGreaterThan(0)
    await first.edge.engine.persistent!.flush()
    expect(first.stats().writes).toBeGreaterThan(0)
    expect(await client.dbsize()).toBeGreaterThan(0)

    const second = await server()
    expect(await traces(second.edge.url, tx.hash)).toEqual(expected)
    expect(stateCalls(second.proxy)).toBe(0)
    expect(second.stats()).toMatchObject({ rejected: 0, failures: 0 })
    expect(second.stats().hits).toBeGreaterThan(0)
    // erigon_nodeInfo names the tiers.
    const [info] = await rpcResult(second.edge.url, 'erigon_nodeInfo', [])
    expect(info.protocols.edgetrace.cache).toEqual(['memory', 'shared'])
  })

  it('a poisoned entry (a trie node, code, a header) is refused, deleted and fetched again, and the answer is right', async () => {
    const tx = txByLabel(devnet, label)
    const reference = await server()
    const expected = await traces(reference.edge.url, tx.hash)
    await reference.edge.engine.persistent!.flush()

    // One entry of each kind that is kept: its bytes changed in place, under the same key.
    const poisoned: string[] = []
    const poisonedText = new Map<string, string>()
    for (const kind of ['tn', 'c', 'h']) {
      const [, keys] = await client.scan('0', 'MATCH', `${PREFIX}${kind}:*`, 'COUNT', 10_000)
      expect(keys.length, `entries of kind ${kind}`).toBeGreaterThan(0)
      for (const key of keys) {
        const text = (await client.get(key))!
        // Every byte string in the value: one hex digit changed (a node still decodes, but no longer hashes to its key).
        await client.set(
          key,
          text.replace(/"0x([0-9a-f]{2})/g, (_m, b: string) => `"0x${b === 'ff' ? '00' : 'ff'}`),
        )
        poisoned.push(key)
      }
    }

    const fresh = await server()
    expect(await traces(fresh.edge.url, tx.hash)).toEqual(expected)
    expect(fresh.stats().rejected).toBeGreaterThan(0)
    expect(stateCalls(fresh.proxy)).toBeGreaterThan(0)
    // What was refused is deleted, then written again from what the upstream proved.
    await fresh.edge.engine.persistent!.flush()
    // Every poisoned entry was on this trace's path: none is left as it was poisoned.
    const left = await Promise.all(poisoned.map(async (key) => ({ key, text: await client.get(key) })))
    expect(left.filter((e) => e.text === poisonedText.get(e.key)).map((e) => e.key)).toEqual([])
    const again = await server()
    expect(await traces(again.edge.url, tx.hash)).toEqual(expected)
    expect(again.stats().rejected).toBe(0)
    expect(stateCalls(again.proxy)).toBe(0)
  })

  it('with Redis killed mid-run every request still succeeds from the upstream, and the cache is used again once it is back', async () => {
    const tx = txByLabel(devnet, label)
    const edge = await server()
    const expected = await traces(edge.edge.url, tx.hash)

    await edge.edge.engine.persistent!.flush()
    logged.length = 0
    await redis.kill()
    const down = await server()
    const started = Date.now()
    expect(await traces(down.edge.url, tx.hash)).toEqual(expected)
    // Bounded: a store that is gone costs a request next to nothing (no command waits on it).
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(down.stats().failures).toBeGreaterThan(0)
    expect(stateCalls(down.proxy)).toBeGreaterThan(0)

    await redis.start()
    // The same server, on transactions it has not traced (of other blocks): its client reconnects
    // (within 2 s), its breaker closes (within 5 s), and what it proves is written again.
    const others = devnet.transactions.filter((t) => t.blockNumber !== tx.blockNumber)
    let next = 0
    await expect
      .poll(
        async () => {
          const t = others[next++ % others.length]!
          await rpcResult(down.edge.url, 'debug_traceTransaction', [t.hash, { tracer: 'callTracer' }])
          await down.edge.engine.persistent!.flush()
          return client.dbsize()
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBeGreaterThan(0)
    // Said once each way, naming the store without its credentials.
    expect(logged.filter((l) => l.includes('failed') && l.startsWith('shared cache:'))).toHaveLength(1)
    expect(logged.filter((l) => l.endsWith('answers again; used again'))).toHaveLength(1)
    expect(logged.join('\n')).not.toMatch(/redis:\/\/[^\s]*@/)
  })
})

describe('--cache.redis on the command line', () => {
  it('the banner names the tier (no credentials); a URL of another scheme is refused, naming the flag', async () => {
    const cli = await runCli(
      [
        '--upstream',
        devnet.anvil.url,
        '--hardfork',
        'prague',
        '--http.port',
        '0',
        '--cache.redis',
        redis.url.replace('//', '//user:secret@'),
      ],
      /listening: +http:\/\/\S+/,
    )
    try {
      expect(cli.output).toContain(
        `  cache:      memory, then shared on ${redis.url} (--cache.redis; every entry read is checked)`,
      )
      expect(cli.output).not.toContain('secret')
    } finally {
      cli.kill()
    }
    const refused = await runCli(['--upstream', devnet.anvil.url, '--cache.redis', 'http://127.0.0.1:6379'], /never/)
    expect(refused.code).toBe(1)
    expect(refused.output).toContain('--cache.redis needs a redis:// or rediss:// URL, got "http://127.0.0.1:6379"')
  })
})
