import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { createProxy } from '../../test/src/createProxy.js'
import { UpstreamRpcError, UpstreamUnavailableError } from '../errors/upstream.js'
import { type AnvilInstance, startAnvil } from '../node/devnet/startAnvil.js'
import { createUpstream } from './createUpstream.js'
import { redactUrl } from './redactUrl.js'

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
    const [a, b] = await Promise.all([upstream.request<string>('eth_chainId'), upstream.request<string>('eth_blockNumber')])
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
    const upstream = createUpstream({ url: `http://alice:hunter2secret@127.0.0.1:${port}/?apikey=sk_live_1234`, retries: 2, retryBaseMs: 5 })
    const err = await upstream.request('eth_chainId').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UpstreamUnavailableError)
    const text = `${(err as Error).message} ${JSON.stringify(err)}`
    expect(text).toContain('HTTP 502')
    expect(text).not.toContain('hunter2secret')
    expect(text).not.toContain('alice')
    expect(text).not.toContain('sk_live_1234')
    expect(upstream.url).toBe(`http://127.0.0.1:${port}/?apikey=***`)
    expect(upstream.stats().requests).toBe(3)
    await upstream.close()
    await proxy.stop()
  })

  it('after giving up, fails at once for the cooldown, reports reachability, and recovers', async () => {
    let down = true
    const proxy = await createProxy(anvil.url, { onRequest: () => (down ? { status: 503 } : undefined) })
    const heard: boolean[] = []
    const upstream = createUpstream({ url: proxy.url, retries: 1, retryBaseMs: 5, unreachableCooldownMs: 300, onReachability: (r) => heard.push(r) })
    await expect(upstream.request('eth_chainId')).rejects.toThrow(/upstream unreachable: HTTP 503 \(after 2 attempts\)/)
    expect(heard).toEqual([false])
    const sent = upstream.stats().requests
    await expect(upstream.request('eth_chainId')).rejects.toThrow(/HTTP 503 \(after 2 attempts\); not asked again for 1 s/)
    expect(upstream.stats().requests).toBe(sent)
    down = false
    await new Promise((r) => setTimeout(r, 350))
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

describe('createUpstream over WebSocket', () => {
  it('batches over one connection, and reconnects when the node drops it', async () => {
    const node = await startAnvil()
    const upstream = createUpstream({ url: node.url.replace('http', 'ws'), retryBaseMs: 50, retryMaxMs: 500, retries: 8, webSocket: WebSocket as never })
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
  it('removes user info, key-like path segments and secret query values', () => {
    expect(redactUrl('https://user:pass@mainnet.infura.io/v3/0123456789abcdef0123456789abcdef')).toBe(
      'https://mainnet.infura.io/v3/***',
    )
    expect(redactUrl('https://node.example/rpc?token=abc&chain=1')).toBe('https://node.example/rpc?token=***&chain=1')
    expect(redactUrl('ws://127.0.0.1:8546')).toBe('ws://127.0.0.1:8546')
  })
})
