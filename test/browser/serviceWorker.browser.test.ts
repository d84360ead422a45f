import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type EdgetraceServiceWorker,
  registerEdgetraceServiceWorker,
} from '../../src/browser/registerEdgetraceServiceWorker.js'
import {
  anvilResult,
  configFor,
  env,
  newWorker,
  nodeAnswer,
  nodePost,
  serviceWorkerScript,
  traceCallParams,
  txByLabel,
} from './support.js'

// The service-worker HTTP shim: a POST of JSON-RPC to /rpc from the page is answered by edgetrace
// inside the service worker, exactly as the Node server answers.
describe('service-worker HTTP shim', () => {
  let sw: EdgetraceServiceWorker
  const post = async (body: unknown) => {
    const res = await fetch(sw.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
    return { status: res.status, text: await res.text() }
  }
  beforeAll(async () => {
    sw = await registerEdgetraceServiceWorker({
      ...serviceWorkerScript(),
      config: { ...configFor(), path: '/rpc' },
      // This page hosts the service worker's JavaScript tracers (it cannot start their workers).
      tracerWorker: newWorker,
    })
  })
  afterAll(async () => {
    await sw?.unregister()
  })

  it('is served on the page origin once registered', () => {
    expect(sw.url).toBe(`${location.origin}/rpc`)
    expect(sw.status).toMatchObject({ chainId: '0x7a69', reachable: true })
  })

  it('debug_traceCall equals the Node server', async () => {
    const params = traceCallParams()
    const got = await post({ jsonrpc: '2.0', id: 1, method: 'debug_traceCall', params })
    expect(got.status).toBe(200)
    expect(JSON.parse(got.text)).toEqual(await nodeAnswer('debug_traceCall', params))
  })

  it('trace_transaction equals the Node server, byte for byte', async () => {
    const { hash } = txByLabel('CREATE2 then SELFDESTRUCT in one transaction')
    const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'trace_transaction', params: [hash] })
    const got = await post(body)
    const want = await fetch(env().nodeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }).then((r) => r.text())
    expect(got.text).toBe(want)
  })

  it('streams a struct-log trace equal to the Node server', async () => {
    const { hash } = txByLabel('recursion 5 deep')
    const body = {
      jsonrpc: '2.0',
      id: 2,
      method: 'debug_traceTransaction',
      params: [hash, { enableMemory: true, enableReturnData: true }],
    }
    const got = await post(body)
    expect(JSON.parse(got.text)).toEqual(await nodePost(body))
  })

  it('answers batches, notifications, parse errors and limits as the Node server', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'debug_traceTransaction', params: ['0x1234'] },
    ]
    expect(JSON.parse((await post(batch)).text)).toEqual(await nodePost(batch))
    const notification = await post({ jsonrpc: '2.0', method: 'eth_chainId', params: [] })
    expect(notification).toEqual({ status: 200, text: '' })
    const parse = await post('{"jsonrpc":')
    const nodeParse = await fetch(env().nodeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":',
    }).then((r) => r.text())
    expect(parse.text).toBe(nodeParse)
    const big = Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_chainId', params: [] }))
    expect(JSON.parse((await post(big)).text)).toEqual(await nodePost(big))
  })

  it('refuses a disabled namespace as the Node server does', async () => {
    const body = { jsonrpc: '2.0', id: 3, method: 'sidechain_getSnapshot', params: [] }
    expect(JSON.parse((await post(body)).text)).toEqual(await nodePost(body))
    expect(JSON.parse((await post(body)).text)).toHaveProperty('error.code', -32601)
  })

  it('refuses a bad configuration with an error naming the field, and keeps serving the last good one', async () => {
    const err = await registerEdgetraceServiceWorker({
      ...serviceWorkerScript(),
      config: { ...configFor(), upstream: 'ftp://nowhere', path: '/rpc' },
    }).catch((e: unknown) => e)
    expect(err).toMatchObject({
      code: -32602,
      message: 'invalid config.upstream: expected an http(s):// or ws(s):// URL, got "ftp://nowhere"',
    })
    expect(JSON.parse((await post({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })).text)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: '0x7a69',
    })
  })

  it('reports progress of a long request to the page', async () => {
    const seen: { method: string; done: number; total: number }[] = []
    const off = sw.onProgress((e) => seen.push(e))
    const { blockNumber } = txByLabel('nested token calls (transferFrom, transfer, balanceOf)')
    await post({
      jsonrpc: '2.0',
      id: 9,
      method: 'trace_replayBlockTransactions',
      params: [`0x${blockNumber.toString(16)}`, ['trace']],
    })
    await new Promise((r) => setTimeout(r, 50))
    off()
    expect(seen.at(-1)).toMatchObject({ method: 'trace_replayBlockTransactions', id: 9 })
    expect(seen.at(-1)!.done).toBe(seen.at(-1)!.total)
  })

  it('serves JavaScript tracers on a worker of the hosting page: equal to anvil’s; an endless one ends at its timeout and the next runs', async () => {
    const tracer = `{ n: 0, calls: [], step: function(log) { this.n++ },
      enter: function(f) { this.calls.push(f.getType()) }, exit: function() {},
      fault: function() {}, result: function(ctx) { return { n: this.n, calls: this.calls, type: ctx.type } } }`
    for (const label of ['recursion 5 deep', 'DELEGATECALL', 'CREATE']) {
      const { hash } = txByLabel(label)
      const got = await post({ jsonrpc: '2.0', id: 1, method: 'debug_traceTransaction', params: [hash, { tracer }] })
      expect(JSON.parse(got.text), label).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: await anvilResult(env().anvilUrl, 'debug_traceTransaction', [hash, { tracer }]),
      })
    }
    const { hash } = txByLabel('recursion 5 deep')
    const started = Date.now()
    const endless = await post({
      jsonrpc: '2.0',
      id: 2,
      method: 'debug_traceTransaction',
      params: [
        hash,
        {
          tracer: '{ step: function() { for (;;) {} }, fault: function() {}, result: function() { return 1 } }',
          timeout: '1s',
        },
      ],
    })
    expect(JSON.parse(endless.text)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32000, message: 'execution timeout' },
    })
    expect(Date.now() - started).toBeLessThan(20_000)
    const again = await post({ jsonrpc: '2.0', id: 3, method: 'debug_traceTransaction', params: [hash, { tracer }] })
    expect(JSON.parse(again.text), again.text.slice(0, 500)).toMatchObject({ id: 3, result: { type: 'CALL' } })
  }, 120_000)
})
