import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { connectEdgetraceWorker } from '../../src/browser/connectEdgetraceWorker.js'
import { createEip1193Provider } from '../../src/browser/createEip1193Provider.js'
import type { EdgetraceConfig } from '../../src/browser/createEdgetraceService.js'
import { type DevnetInfo, env, freshCacheName, newWorker } from './support.js'

const strip = (r: { result?: unknown; error?: unknown }) =>
  'error' in r && r.error !== undefined ? { error: r.error } : { result: r.result }

// The persistent IndexedDB cache: it survives a page reload, and a transaction traced once is traced
// again, identically, with the upstream gone; what was never fetched says the upstream is unreachable.
describe('persistent cache and offline replay', () => {
  let devnet: DevnetInfo
  let config: EdgetraceConfig
  let calls: { method: string; params: unknown[] }[]
  let online: { result?: unknown; error?: unknown }[]

  beforeAll(async () => {
    devnet = await commands.startDevnet()
    config = {
      upstream: devnet.anvilUrl,
      api: ['eth', 'debug', 'trace'],
      hardfork: 'prague',
      cache: { name: freshCacheName('edgetrace-offline') },
      upstreamOptions: { retries: 1, unreachableCooldownMs: 2000 },
    }
    const tx = (label: string) => devnet.transactions.find((t) => t.label === label)!.hash
    calls = [
      {
        method: 'debug_traceTransaction',
        params: [
          tx('nested token calls (transferFrom, transfer, balanceOf)'),
          { tracer: 'callTracer', tracerConfig: { withLog: true } },
        ],
      },
      { method: 'trace_transaction', params: [tx('CREATE2 then SELFDESTRUCT in one transaction')] },
      {
        method: 'debug_traceTransaction',
        params: [tx('storage writes'), { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }],
      },
      { method: 'debug_traceTransaction', params: [tx('transient storage')] },
    ]
  })
  afterAll(async () => {
    if (devnet) await commands.stopDevnet(devnet.anvilUrl)
  })

  it('traces online and keeps what it verified in IndexedDB', async () => {
    const client = await connectEdgetraceWorker(newWorker(), config)
    online = []
    for (const c of calls) online.push(strip(await client.call(c.method, c.params)))
    expect(online.every((r) => 'result' in r)).toBe(true)
    await client.flush()
    const status = await client.status()
    expect(status!.persistent!.entries).toBeGreaterThan(20)
    await client.close()
  })

  it('survives a page reload: a fresh page (and the same page reloaded) answers the same, from the cache', async () => {
    const [first, second] = await commands.runInFreshPageTwice(location.origin, config, calls, env().bundles.worker)
    for (const run of [first, second]) {
      expect(run.answers.map(strip)).toEqual(online)
      expect(run.after.persistent!.hits).toBeGreaterThan(run.before.persistent!.hits)
      // Only where each transaction is (asked every time: a reorg may move it); state, code, headers and blocks come from IndexedDB.
      expect(run.after.upstreamRequests - run.before.upstreamRequests).toBeLessThanOrEqual(calls.length)
    }
  })

  it('with the upstream stopped: the same traces, a disconnect event, and a clear error for what was never cached', async () => {
    const client = await connectEdgetraceWorker(newWorker(), config)
    const provider = createEip1193Provider(client)
    const disconnects: { code: number; message: string }[] = []
    provider.on('disconnect', (e) => disconnects.push(e))

    await commands.stopDevnet(devnet.anvilUrl)
    const offline = []
    for (const c of calls) offline.push(strip(await client.call(c.method, c.params)))
    expect(offline).toEqual(online)
    expect(disconnects.map((d) => d.code)).toEqual([4900])
    expect(disconnects[0]!.message).toMatch(/upstream is unreachable/)

    const never = devnet.transactions.find((t) => t.label === 'plain ether transfer')!.hash
    const missing = await client.call('debug_traceTransaction', [never])
    expect(missing).toHaveProperty('error.code', -32000)
    expect((missing as { error: { message: string } }).error.message).toMatch(/^upstream unreachable: /)
    await client.close()
  })

  it('starts with the upstream gone, from what the cache remembers, and replays the same', async () => {
    const client = await connectEdgetraceWorker(newWorker(), config)
    expect(client.started).toMatchObject({ startedOffline: true, reachable: false, chainId: '0x7a69' })
    const offline = []
    for (const c of calls) offline.push(strip(await client.call(c.method, c.params)))
    expect(offline).toEqual(online)
    await client.close()
  })

  it('refuses to start on an unreachable upstream it never met, with a clear error', async () => {
    const err = await connectEdgetraceWorker(newWorker(), {
      ...config,
      upstream: 'http://127.0.0.1:9',
      cache: { name: freshCacheName('never') },
    }).catch((e: unknown) => e)
    expect(err).toMatchObject({
      name: 'EdgetraceStartError',
      message: expect.stringMatching(/^upstream unreachable: connection failed/),
    })
  })
})
