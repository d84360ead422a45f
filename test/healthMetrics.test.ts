import { networkInterfaces } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { parseCliArgs } from '../src/node/parseCliArgs.js'
import { type Proxy, createProxy } from './src/createProxy.js'
import { rpc } from './src/rpc.js'

// What a fleet's load balancer and monitoring read: GET /health (live, and ready or not, with why)
// and GET /metrics (Prometheus text), on a real server in front of anvil through a proxy that can
// stop answering.

let anvil: AnvilInstance
let proxy: Proxy
let edge: RunningEdgetrace
beforeAll(async () => {
  anvil = await startAnvil()
  proxy = await createProxy(anvil.url)
  edge = await startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague', api: ['eth', 'debug'] })
})
afterAll(async () => {
  await edge?.close()
  await proxy?.stop()
  await anvil?.stop()
})

const get = async (url: string) => {
  const res = await fetch(url)
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() }
}

describe('GET /health', () => {
  it('is ready (200) while the head resolves, and not (503, saying why) while the upstream does not answer', async () => {
    const ok = await get(`${edge.url}/health`)
    expect(ok.status).toBe(200)
    const report = JSON.parse(ok.text)
    expect(report).toMatchObject({ status: 'ok', live: true, ready: true, cache: { tiers: ['memory'] } })
    expect(report.head.hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(report.upstream).toBe(proxy.url.replace(/\/$/, ''))

    proxy.hooks.onRequest = () => 'hang'
    // The report is kept for a second: the next probe is the one that finds the upstream gone.
    await new Promise((r) => setTimeout(r, 1_100))
    const started = Date.now()
    const down = await get(`${edge.url}/health`)
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(down.status).toBe(503)
    expect(JSON.parse(down.text)).toMatchObject({ status: 'unavailable', live: true, ready: false, head: null })
    expect(JSON.parse(down.text).error).toMatch(/within 2000 ms|upstream/)

    delete proxy.hooks.onRequest
    await new Promise((r) => setTimeout(r, 1_100))
    expect((await get(`${edge.url}/health`)).status).toBe(200)
  })
})

describe('GET /metrics', () => {
  it('counts calls by method and outcome with their latency, a method of no namespace as other, and reads the upstream and cache counters', async () => {
    await rpc(edge.url, 'eth_blockNumber', [])
    await rpc(edge.url, 'eth_blockNumber', [])
    await rpc(edge.url, 'eth_getBalance', ['0xnot-an-address', 'latest'])
    await rpc(edge.url, 'eth_madeUpMethod', [])
    await rpc(edge.url, `x_${'a'.repeat(40)}`, [])
    const { status, type, text } = await get(`${edge.url}/metrics`)
    expect(status).toBe(200)
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/)
    const value = (line: string) => {
      const found = text.split('\n').find((l) => l.startsWith(`${line} `))
      return found === undefined ? undefined : Number(found.slice(line.length + 1))
    }
    expect(value('edgetrace_requests_total{method="eth_blockNumber",outcome="ok"}')).toBeGreaterThanOrEqual(2)
    expect(value('edgetrace_requests_total{method="eth_getBalance",outcome="error"}')).toBe(1)
    expect(value('edgetrace_requests_total{method="other",outcome="error"}')).toBe(2)
    expect(text).not.toContain('madeUpMethod')
    expect(value('edgetrace_request_duration_seconds_count{method="eth_blockNumber"}')).toBeGreaterThanOrEqual(2)
    expect(text).toContain('edgetrace_request_duration_seconds_bucket{le="0.005",method="eth_blockNumber"}')
    expect(value('edgetrace_upstream_requests')).toBeGreaterThan(0)
    expect(value('edgetrace_upstream_round_trips')).toBeGreaterThan(0)
    expect(value('edgetrace_cache{tier="memory",kind="hits"}')).toBeGreaterThanOrEqual(0)
    // The work queue's metrics come with the queue (--queue.redis; test/workQueue.test.ts).
    expect(text).not.toContain('edgetrace_queue_')
  })
})

describe('beyond loopback', () => {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address

  it.skipIf(address === undefined)(
    'a listener beyond loopback answers /health with a plain ok and no /metrics, unless --metrics',
    async () => {
      for (const metrics of [false, true]) {
        const open = await startEdgetrace({
          upstream: anvil.url,
          host: address!,
          port: 0,
          hardfork: 'prague',
          api: ['eth'],
          vhosts: ['*'],
          metrics,
        })
        try {
          const health = await get(`${open.url}/health`)
          expect(health.status).toBe(200)
          if (metrics) expect(JSON.parse(health.text)).toMatchObject({ ready: true, live: true })
          else expect(health.text).toBe('{"status":"ok"}')
          expect((await get(`${open.url}/metrics`)).status).toBe(metrics ? 200 : 404)
        } finally {
          await open.close()
        }
      }
    },
  )

  it('--metrics is a flag of the command line', () => {
    expect(parseCliArgs(['--metrics']).metrics).toBe(true)
    expect(parseCliArgs([]).metrics).toBe(false)
  })
})
