import { type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { createProxy } from '../../test/src/createProxy.js'
import { UpstreamRpcError, UpstreamUnavailableError } from '../errors/upstream.js'
import { type AnvilInstance, startAnvil } from '../node/devnet/startAnvil.js'
import { createUpstream } from './createUpstream.js'
import { redactUrl } from '../utils/redactUrl.js'

const ACCOUNTS = [
  '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
]
let anvil: AnvilInstance

beforeAll(async () => {
  anvil = await startAnvil()
})
afterAll(async () => {
  await anvil.stop()
})

describe('createUpstream over HTTP', () => {
  it('coalesces calls made in the same tick into one batch and one round trip', async () => {
    const proxy = await createProxy(anvil.url)
    const upstream = createUpstream({ url: proxy.url })
    const balances = await Promise.all(
      Array.from({ length: 10 }, (_, i) => upstream.request<string>('eth_getBalance', [ACCOUNTS[i % 3], 'latest'])),
    )
    expect(balances.every((b) => BigInt(b) > 0n)).toBe(true)
    expect(proxy.requests).toBe(1)
    expect(upstream.stats()).toEqual({ requests: 1, calls: 10, roundTrips: 1, retries: 0 })
    await upstream.close()
    await proxy.stop()
  })

  it('counts dependent (awaited) calls as sequential round trips', async () => {
    const upstream = createUpstream({ url: anvil.url })
    await upstream.request('eth_chainId')
    await upstream.request('eth_blockNumber')
    await Promise.all([upstream.request('eth_chainId'), upstream.request('eth_gasPrice')])
    expect(upstream.stats()).toMatchObject({ requests: 3, calls: 4, roundTrips: 3 })
    upstream.resetStats()
    expect(upstream.stats()).toEqual({ requests: 0, calls: 0, roundTrips: 0, retries: 0 })
    await upstream.close()
  })

  it('splits large batches at maxBatchSize and sends the parts concurrently', async () => {
    const proxy = await createProxy(anvil.url)
    const upstream = createUpstream({ url: proxy.url, maxBatchSize: 4 })
    const ids = await Promise.all(Array.from({ length: 10 }, () => upstream.request<string>('eth_chainId')))
    expect(ids).toEqual(Array(10).fill(`0x${anvil.chainId.toString(16)}`))
    expect(proxy.requests).toBe(3)
    expect(upstream.stats()).toMatchObject({ requests: 3, calls: 10, roundTrips: 1 })
    await upstream.close()
    await proxy.stop()
  })

  it('falls back to single calls when the upstream refuses batches', async () => {
    const proxy = await createProxy(anvil.url, { rejectBatches: true })
    const upstream = createUpstream({ url: proxy.url })
    const [a, b] = await Promise.all([
      upstream.request<string>('eth_chainId'),
      upstream.request<string>('eth_blockNumber'),
    ])
    expect(BigInt(a)).toBe(BigInt(anvil.chainId))
    expect(typeof b).toBe('string')
    const before = proxy.requests
    await Promise.all([upstream.request('eth_chainId'), upstream.request('eth_chainId')])
    expect(proxy.requests - before).toBe(2)
    await upstream.close()
    await proxy.stop()
  })

  it('retries 429 (honouring Retry-After), 503 and dropped connections', async () => {
    const faults = ['429', '503', 'drop']
    const proxy = await createProxy(anvil.url, {
      onRequest: ({ count }) => {
        const fault = faults[count - 1]
        if (fault === '429') return { status: 429, headers: { 'retry-after': '0.3' } }
        if (fault === '503') return { status: 503 }
        if (fault === 'drop') return 'drop'
        return undefined
      },
    })
    const upstream = createUpstream({ url: proxy.url, retryBaseMs: 10 })
    const started = Date.now()
    expect(BigInt(await upstream.request<string>('eth_chainId'))).toBe(BigInt(anvil.chainId))
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)
    expect(upstream.stats()).toMatchObject({ requests: 4, retries: 3 })
    await upstream.close()
    await proxy.stop()
  })

  it('gives up after the retries with an error that carries no credentials', async () => {
    const proxy = await createProxy(anvil.url, { onRequest: () => ({ status: 502 }) })
    const port = new URL(proxy.url).port
    const upstream = createUpstream({
      url: `http://alice:hunter2secret@127.0.0.1:${port}/?apikey=sk_live_1234`,
      retries: 2,
      retryBaseMs: 5,
    })
    const err = await upstream.request('eth_chainId').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UpstreamUnavailableError)
    const text = `${(err as Error).message} ${JSON.stringify(err)}`
    expect(text).toContain('HTTP 502')
    expect(text).not.toContain('hunter2secret')
    expect(text).not.toContain('alice')
    expect(text).not.toContain('sk_live_1234')
    expect(upstream.url).toBe(`http://127.0.0.1:${port}`)
    expect(upstream.stats().requests).toBe(3)
    await upstream.close()
    await proxy.stop()
  })

  it('after giving up, fails at once for the cooldown, reports reachability, and recovers', async () => {
    let down = true
    const proxy = await createProxy(anvil.url, { onRequest: () => (down ? { status: 503 } : undefined) })
    const heard: boolean[] = []
    const upstream = createUpstream({
      url: proxy.url,
      retries: 1,
      retryBaseMs: 5,
      unreachableCooldownMs: 300,
      onReachability: (r) => heard.push(r),
    })
    await expect(upstream.request('eth_chainId')).rejects.toThrow(/upstream unreachable: HTTP 503 \(after 2 attempts\)/)
    expect(heard).toEqual([false])
    const sent = upstream.stats().requests
    await expect(upstream.request('eth_chainId')).rejects.toThrow(
      /HTTP 503 \(after 2 attempts\); not asked again for 1 s/,
    )
    expect(upstream.stats().requests).toBe(sent)
    down = false
    await new Promise((r) => setTimeout(r, 1600))
    expect(await upstream.request('eth_chainId')).toBe('0x7a69')
    expect(heard).toEqual([false, true])
    await upstream.close()
    await proxy.stop()
  })

  it('rejects JSON-RPC errors without retrying them', async () => {
    const proxy = await createProxy(anvil.url)
    const upstream = createUpstream({ url: proxy.url })
    const [ok, err] = await Promise.all([
      upstream.request('eth_chainId'),
      upstream.request('no_suchMethod').catch((e: unknown) => e),
    ])
    expect(ok).toBeDefined()
    expect(err).toBeInstanceOf(UpstreamRpcError)
    expect((err as UpstreamRpcError).code).toBe(-32601)
    expect(proxy.requests).toBe(1)
    await upstream.close()
    await proxy.stop()
  })

  it('times out a request that gets no answer, then retries it', async () => {
    const proxy = await createProxy(anvil.url, { delayMs: 400 })
    const upstream = createUpstream({ url: proxy.url, timeoutMs: 100, retries: 1, retryBaseMs: 5 })
    const err = await upstream.request('eth_chainId').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UpstreamUnavailableError)
    expect((err as Error).message).toContain('timed out after 100 ms')
    expect(upstream.stats().retries).toBe(1)
    await upstream.close()
    await proxy.stop()
  })
})

describe('createUpstream under faults (issue 12)', () => {
  it('serialises each call on its own: one that cannot be sent fails alone, the rest of its batch is served', async () => {
    const proxy = await createProxy(anvil.url)
    const upstream = createUpstream({ url: proxy.url })
    let deep: unknown = 0
    for (let i = 0; i < 10_000; i++) deep = [deep]
    const [a, bad, b] = await Promise.allSettled([
      upstream.request<string>('eth_chainId'),
      upstream.request('eth_foo', [deep, 1n]),
      upstream.request<string>('eth_blockNumber'),
    ])
    expect(a).toMatchObject({ status: 'fulfilled', value: '0x7a69' })
    expect(b.status).toBe('fulfilled')
    expect(bad.status).toBe('rejected')
    expect(String((bad as PromiseRejectedResult).reason.message)).toMatch(/eth_foo cannot be sent to the upstream/)
    expect(proxy.calls.get('eth_foo')).toBeUndefined()
    expect(proxy.requests).toBe(1)
    await upstream.close()
    await proxy.stop()
  })

  it('retries a garbled (truncated) batch answer and keeps batching', async () => {
    const proxy = await createProxy(anvil.url, {
      onRequest: ({ count }) => (count === 1 ? { status: 200, body: '[{"jsonrpc":"2.0","id":1,"res' } : undefined),
    })
    const upstream = createUpstream({ url: proxy.url, retryBaseMs: 5 })
    const pair = () =>
      Promise.all([upstream.request<string>('eth_chainId'), upstream.request<string>('eth_blockNumber')])
    expect((await pair())[0]).toBe('0x7a69')
    expect(upstream.stats()).toMatchObject({ requests: 2, retries: 1 })
    await pair()
    // Still one request for two calls: batching was not given up.
    expect(upstream.stats().requests).toBe(3)
    await upstream.close()
    await proxy.stop()
  })

  it('sends calls one by one after a refused batch, and tries batches again after the re-probe interval', async () => {
    const proxy = await createProxy(anvil.url, { rejectBatches: true })
    const upstream = createUpstream({ url: proxy.url, batchReprobeMs: 1500 })
    const pair = () => Promise.all([upstream.request<string>('eth_chainId'), upstream.request<string>('eth_chainId')])
    await pair()
    expect(proxy.requests).toBe(3) // the refused batch, then two single calls
    proxy.hooks.rejectBatches = false
    await pair()
    expect(proxy.requests).toBe(5) // still one by one within the interval
    await new Promise((r) => setTimeout(r, 1600))
    await pair()
    expect(proxy.requests).toBe(6) // one batch again
    await upstream.close()
    await proxy.stop()
  })

  it('retries a call answered with a rate-limit error (-32005), not its neighbours', async () => {
    let limited = 2
    const proxy = await createProxy(anvil.url, {
      onRequest: ({ body }) => {
        const calls = body as { id: number; method: string }[]
        if (!Array.isArray(calls) || limited === 0) return undefined
        limited--
        // The upstream answers the chain id and rate-limits the block number.
        return {
          status: 200,
          body: JSON.stringify(
            calls.map((c) =>
              c.method === 'eth_chainId'
                ? { jsonrpc: '2.0', id: c.id, result: '0x7a69' }
                : { jsonrpc: '2.0', id: c.id, error: { code: -32005, message: 'rate limit exceeded' } },
            ),
          ),
        }
      },
    })
    const upstream = createUpstream({ url: proxy.url, retryBaseMs: 5 })
    const [id, number] = await Promise.all([
      upstream.request<string>('eth_chainId'),
      upstream.request<string>('eth_blockNumber'),
    ])
    expect(id).toBe('0x7a69')
    expect(typeof number).toBe('string')
    expect(proxy.calls.get('eth_chainId')).toBe(1)
    expect(proxy.calls.get('eth_blockNumber')).toBe(2)
    await upstream.close()
    await proxy.stop()
  })

  it('waits for no call longer than callTimeoutMs, and frees the slot of a request nobody waits for', async () => {
    // A node that never answers its first request, and forwards the others to anvil.
    let seen = 0
    const hung: ServerResponse[] = []
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = []
      for await (const c of req) chunks.push(c as Buffer)
      if (++seen === 1) return void hung.push(res)
      const reply = await fetch(anvil.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat(chunks),
      })
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(await reply.text())
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const logs: string[] = []
    const upstream = createUpstream({ url, maxInFlight: 1, callTimeoutMs: 300, onLog: (l) => logs.push(l) })
    const started = Date.now()
    const err = await upstream.request('eth_chainId').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UpstreamUnavailableError)
    expect((err as UpstreamUnavailableError).shortMessage).toMatch(
      /^upstream unreachable: no answer to eth_chainId within 300ms/,
    )
    expect(Date.now() - started).toBeLessThan(1000)
    expect(logs.join('\n')).toMatch(/no answer to eth_chainId within 300ms/)
    // With one slot, the next call is served only if the abandoned request gave its slot back.
    const again = Date.now()
    expect(await upstream.request('eth_chainId')).toBe('0x7a69')
    expect(Date.now() - again).toBeLessThan(1000)
    for (const res of hung) res.destroy()
    await upstream.close()
    server.closeAllConnections()
    await new Promise((r) => server.close(r))
  })
})

describe('createUpstream over WebSocket', () => {
  it('batches over one connection, and reconnects when the node drops it', async () => {
    const node = await startAnvil()
    const upstream = createUpstream({
      url: node.url.replace('http', 'ws'),
      retryBaseMs: 50,
      retryMaxMs: 500,
      retries: 8,
      webSocket: WebSocket as never,
    })
    const results = await Promise.all(ACCOUNTS.map((a) => upstream.request<string>('eth_getBalance', [a, 'latest'])))
    expect(results.every((b) => BigInt(b) > 0n)).toBe(true)
    expect(upstream.stats()).toMatchObject({ requests: 1, calls: 3, roundTrips: 1 })
    const err = await upstream.request('no_suchMethod').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UpstreamRpcError)
    // The node goes away and comes back on the same port: the client reconnects by itself.
    await node.stop()
    const pending = upstream.request<string>('eth_chainId')
    const again = await startAnvil({ port: node.port })
    expect(BigInt(await pending)).toBe(BigInt(node.chainId))
    expect(upstream.stats().retries).toBeGreaterThan(0)
    await upstream.close()
    await again.stop()
  })
})

describe('redactUrl', () => {
  it('keeps the scheme, host and port only: no user info, path or query', () => {
    expect(redactUrl('https://user:pass@mainnet.infura.io/v3/0123456789abcdef0123456789abcdef')).toBe(
      'https://mainnet.infura.io',
    )
    expect(redactUrl('https://node.example/rpc?token=abc&chain=1')).toBe('https://node.example')
    expect(redactUrl('ws://127.0.0.1:8546')).toBe('ws://127.0.0.1:8546')
  })
})
