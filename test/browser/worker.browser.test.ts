import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EdgetraceClient } from '../../src/browser/connectEdgetraceWorker.js'
import { env, nodeAnswer, nodePost, startWorker, traceCallParams, txByLabel } from './support.js'

// The daemon in a Web Worker, reached by postMessage (comlink): its answers equal the Node server's.
describe('worker over postMessage', () => {
  let client: EdgetraceClient
  beforeAll(async () => {
    client = await startWorker()
  })
  afterAll(async () => {
    await client?.close()
  })

  it('starts on the upstream and reports its status', () => {
    expect(client.started).toMatchObject({ chainId: '0x7a69', reachable: true, startedOffline: false, api: env().api })
    expect(client.started.persistent?.database).toMatch(/^edgetrace-test-/)
  })

  it('refuses a bad config with an error naming the field, and a request before start', async () => {
    for (const [overrides, message] of [
      [{ upstream: 'not a url' }, 'invalid config.upstream: expected an http(s):// or ws(s):// URL, got "not a url"'],
      [{ api: 'eth,debug' }, 'invalid config.api: expected an array of namespace names, got "eth,debug"'],
      [{ batchLimit: 0 }, 'invalid config.batchLimit: expected a positive integer, got 0'],
      [
        { checkpoint: '0x1234' },
        'invalid config.checkpoint: expected a block hash (0x and 64 hex digits), got "0x1234"',
      ],
      [
        { engine: { traceCompat: 'yes' } },
        'invalid config.engine.traceCompat: expected true or false (--trace.compat), got "yes"',
      ],
    ] as const) {
      const err = await startWorker(overrides as never).catch((e: unknown) => e)
      expect(err).toMatchObject({ name: 'EdgetraceStartError', message, error: { code: -32602, message } })
    }
  })

  it('debug_traceCall equals the Node server', async () => {
    const params = traceCallParams()
    const got = await client.call('debug_traceCall', params)
    const want = await nodeAnswer('debug_traceCall', params)
    expect(got).toEqual({ ...(want as object), id: got.id })
    expect((got as { result: { calls?: unknown[] } }).result.calls?.length).toBeGreaterThan(0)
  })

  it('trace_transaction equals the Node server', async () => {
    const { hash } = txByLabel('nested token calls (transferFrom, transfer, balanceOf)')
    const got = await client.call('trace_transaction', [hash])
    const want = await nodeAnswer('trace_transaction', [hash])
    expect(got).toEqual({ ...(want as object), id: got.id })
    expect((got as { result: unknown[] }).result.length).toBeGreaterThan(2)
  })

  it('the explorer namespaces (ots_*, erigon_*) equal the Node server', async () => {
    const { hash } = txByLabel('nested token calls (transferFrom, transfer, balanceOf)')
    const receipt = (await nodeAnswer('eth_getTransactionReceipt', [hash])) as { result: { blockNumber: string } }
    const block = receipt.result.blockNumber
    for (const [method, params] of [
      ['ots_getApiLevel', []],
      ['ots_traceTransaction', [hash]],
      ['ots_getInternalOperations', [hash]],
      ['ots_getTransactionError', [hash]],
      ['ots_getBlockDetails', [Number(block)]],
      ['erigon_forks', []],
      ['erigon_getHeaderByNumber', [Number(block)]],
      ['erigon_getLogsByHash', [((await nodeAnswer('eth_getBlockByNumber', [block, false])) as any).result.hash]],
    ] as const) {
      const got = await client.call(method, [...params])
      const want = await nodeAnswer(method, [...params])
      expect(got, method).toEqual({ ...(want as object), id: got.id })
      expect((got as { error?: unknown }).error, method).toBeUndefined()
    }
  })

  it('struct logs (a streamed result) equal the Node server', async () => {
    const { hash } = txByLabel('storage writes')
    const got = await client.call('debug_traceTransaction', [hash, { enableMemory: true }])
    const want = await nodeAnswer('debug_traceTransaction', [hash, { enableMemory: true }])
    expect(got).toEqual({ ...(want as object), id: got.id })
  })

  it('refuses a disabled namespace the same way as the Node server', async () => {
    const limited = await startWorker({ api: ['eth'] })
    try {
      for (const [method, params] of [
        ['debug_traceCall', traceCallParams()],
        ['trace_transaction', [txByLabel('CREATE').hash]],
        ['txpool_content', []],
        ['nosuch_method', []],
      ] as const) {
        const got = await limited.call(method, params)
        const want = await nodeAnswer(method, [...params], env().nodeEthOnlyUrl)
        expect(got).toEqual({ ...want, id: got.id })
        expect(got).toHaveProperty('error.code', -32601)
      }
    } finally {
      await limited.close()
    }
  })

  it('answers bad input with the same JSON-RPC errors, batches included, and keeps serving', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'debug_traceTransaction', params: ['0x12'] },
      { jsonrpc: '2.0', id: 2, method: 'trace_transaction', params: [] },
      { jsonrpc: '2.0', id: 3, method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', method: 'eth_chainId', params: [] },
      { id: 4, method: 'eth_chainId' },
    ]
    const got = await client.request(batch)
    const want = await nodePost(batch)
    expect(got).toEqual(want)
    expect((got as unknown[]).length).toBe(4)
  })

  it('reports the progress of a block traced, tagged with its request', async () => {
    const { blockNumber } = txByLabel('nested token calls (transferFrom, transfer, balanceOf)')
    const events: { done: number; total: number; unit: string; method: string }[] = []
    const res = await client.request(
      {
        jsonrpc: '2.0',
        id: 'p1',
        method: 'debug_traceBlockByNumber',
        params: [`0x${blockNumber.toString(16)}`, { tracer: 'callTracer' }],
      },
      { onProgress: (e) => events.push(e) },
    )
    expect((res as { result: unknown[] }).result.length).toBeGreaterThan(0)
    expect(events.length).toBeGreaterThan(0)
    const last = events.at(-1)!
    expect(last).toMatchObject({ id: 'p1', method: 'debug_traceBlockByNumber', unit: 'transactions' })
    expect(last.done).toBe(last.total)
  })

  it('reports the progress of trace_filter over a range, in blocks', async () => {
    const last = Math.max(...env().transactions.map((t) => t.blockNumber))
    const events: { done: number; total: number; unit: string; method: string }[] = []
    const params = [{ fromBlock: '0x2', toBlock: `0x${last.toString(16)}` }]
    const res = await client.request(
      { jsonrpc: '2.0', id: 'f1', method: 'trace_filter', params },
      { onProgress: (e) => events.push(e) },
    )
    expect(res).toEqual({ ...(await nodeAnswer('trace_filter', params)), id: 'f1' })
    expect(events.at(-1)).toMatchObject({
      id: 'f1',
      method: 'trace_filter',
      unit: 'blocks',
      done: last - 1,
      total: last - 1,
    })
  })

  it('debug_memStats and debug_gcStats: the figures a dedicated worker has, null where Chromium gives none', async () => {
    const mem = await client.call('debug_memStats', [])
    expect(mem).toHaveProperty('result.runtime', null) // no performance.memory in a dedicated worker
    const { cache, persistent } = (
      mem as {
        result: {
          cache: { entries: number; hits: number }
          persistent: { entries: number; writes: number; budget: number }
        }
      }
    ).result
    expect(cache.entries).toBeGreaterThan(0)
    expect(cache.hits).toBeGreaterThan(0)
    expect(persistent.entries).toBeGreaterThan(0)
    expect(persistent.budget).toBe(256 * 1024 * 1024)
    const gc = await client.call('debug_gcStats', [])
    expect(gc).toHaveProperty('result', {
      numGC: null,
      pauseTotalMs: null,
      lastPauseMs: null,
      lastGC: null,
      evictions: 0,
    })
    expect(await client.call('debug_setMemoryLimit', [1000])).toHaveProperty('result', 256 * 1024 * 1024)
    const small = (await client.call('debug_memStats', [])) as {
      result: { cache: { bytes: number; evictions: number } }
    }
    expect(small.result.cache.bytes).toBeLessThanOrEqual(1000)
    expect(small.result.cache.evictions).toBeGreaterThan(0)
    expect(await client.call('debug_freeOSMemory', [])).toHaveProperty('result', null)
  })
})
