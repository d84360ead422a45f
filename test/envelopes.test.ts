import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { connectEdgetraceWorker, type EdgetraceClient } from '../src/browser/connectEdgetraceWorker.js'
import { createEdgetraceService } from '../src/browser/createEdgetraceService.js'
import { createEip1193Provider } from '../src/browser/createEip1193Provider.js'
import { serveEdgetrace } from '../src/browser/serveEdgetrace.js'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { MAX_JSON_DEPTH } from '../src/rpc/jsonDepth.js'
import { type Proxy, createProxy } from './src/createProxy.js'
import { DEV_ACCOUNT } from './src/rpc.js'

// Requests as text, over every transport: nesting deeper than the limit is refused before anything
// is dispatched or sent upstream (10,000 levels used to overflow the stack serialising the upstream
// batch), one over-deep request of a batch fails alone, and ids come back as their JSON text came.

let anvil: AnvilInstance
let proxy: Proxy
let edge: RunningEdgetrace
let worker: EdgetraceClient
let channel: MessageChannel

beforeAll(async () => {
  anvil = await startAnvil()
  proxy = await createProxy(anvil.url)
  edge = await startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague', api: ['eth'] })
  // The browser worker's protocol (comlink over a MessageChannel: structured clone, as postMessage).
  channel = new MessageChannel()
  serveEdgetrace(channel.port1 as never)
  worker = await connectEdgetraceWorker(channel.port2 as never, {
    upstream: proxy.url,
    api: ['eth'],
    hardfork: 'prague',
    cache: false,
  })
}, 120_000)
afterAll(async () => {
  await worker?.close()
  channel?.port1.close()
  await edge?.close()
  await proxy?.stop()
  await anvil?.stop()
})

async function postText(body: string): Promise<string> {
  const res = await fetch(edge.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  return res.text()
}

async function overWs(messages: string[]): Promise<string[]> {
  const ws = new WebSocket(edge.wsUrl)
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  const replies: string[] = []
  try {
    for (const m of messages) {
      ws.send(m)
      replies.push(
        await new Promise<string>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('no WebSocket reply in 20 s')), 20_000)
          ws.once('message', (data) => {
            clearTimeout(timer)
            resolve(data.toString())
          })
        }),
      )
    }
  } finally {
    ws.close()
  }
  return replies
}

function nested(levels: number): unknown {
  let value: unknown = []
  for (let i = 1; i < levels; i++) value = [value]
  return value
}
/** Text of `levels` nested arrays (JSON.stringify itself overflows on such depth). */
const nestedText = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`

const tooDeep = {
  code: -32600,
  message: `invalid request: nesting too deep (at most ${MAX_JSON_DEPTH} levels of arrays and objects)`,
}
const calls = (method: string) => proxy.calls.get(method) ?? 0

describe('nesting deeper than the limit', () => {
  it('is refused on HTTP, WebSocket and the worker with the same answer; nothing reaches the upstream', async () => {
    const balancesBefore = calls('eth_getBalance')
    const gasPricesBefore = calls('eth_gasPrice')
    const fooText = `{"jsonrpc":"2.0","id":7,"method":"eth_foo","params":${nestedText(10_000)}}`
    const balanceText = `{"jsonrpc":"2.0","id":8,"method":"eth_getBalance","params":["${DEV_ACCOUNT}",{"blockNumber":${nestedText(10_000)}}]}`
    const want = [
      { jsonrpc: '2.0', id: 7, error: tooDeep },
      { jsonrpc: '2.0', id: 8, error: tooDeep },
    ]
    expect([JSON.parse(await postText(fooText)), JSON.parse(await postText(balanceText))]).toEqual(want)
    expect((await overWs([fooText, balanceText])).map((t) => JSON.parse(t))).toEqual(want)
    expect(await worker.request({ jsonrpc: '2.0', id: 7, method: 'eth_foo', params: nested(10_000) })).toEqual(want[0])
    const provider = createEip1193Provider(worker)
    await expect(
      provider.request({ method: 'eth_getBalance', params: [DEV_ACCOUNT, { blockNumber: nested(10_000) }] as never }),
    ).rejects.toMatchObject(tooDeep)

    expect(calls('eth_foo')).toBe(0)
    expect(calls('eth_getBalance')).toBe(balancesBefore)
    // Just under the limit is served (and passed through: eth_gasPrice is).
    const atLimit = JSON.parse(
      await postText(
        `{"jsonrpc":"2.0","id":9,"method":"eth_gasPrice","params":["${DEV_ACCOUNT}","latest",${nestedText(MAX_JSON_DEPTH - 2)}]}`,
      ),
    )
    expect(atLimit.error?.message).not.toMatch(/nesting too deep/)
    expect(calls('eth_gasPrice')).toBe(gasPricesBefore + 1)
    expect(JSON.parse(await postText(`{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}`))).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: `0x${anvil.chainId.toString(16)}`,
    })
  })

  it('fails only the over-deep request of a batch: the others are answered, on every transport', async () => {
    // eth_gasPrice: a method passed through to the upstream, so each one served is one upstream call.
    const passedBefore = calls('eth_gasPrice')
    const batch = `[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},{"jsonrpc":"2.0","id":2,"method":"eth_gasPrice","params":[${nestedText(10_000)}]},{"jsonrpc":"2.0","id":3,"method":"eth_gasPrice","params":[]}]`
    const http = JSON.parse(await postText(batch))
    expect(http).toHaveLength(3)
    expect(http[0]).toEqual({ jsonrpc: '2.0', id: 1, result: `0x${anvil.chainId.toString(16)}` })
    expect(http[1]).toEqual({ jsonrpc: '2.0', id: 2, error: tooDeep })
    expect(http[2].result).toMatch(/^0x[0-9a-f]+$/)
    expect(JSON.parse((await overWs([batch]))[0]!)).toEqual(http)
    const fromWorker = await worker.request([
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 2, method: 'eth_gasPrice', params: nested(10_000) },
      { jsonrpc: '2.0', id: 3, method: 'eth_gasPrice', params: [] },
    ])
    expect(fromWorker).toEqual(http)
    // Only the shallow eth_gasPrice of each batch went upstream.
    expect(calls('eth_gasPrice')).toBe(passedBefore + 3)
  })

  it("is refused by the worker's service itself when a deep message reaches it by another way", async () => {
    const service = await createEdgetraceService({
      upstream: proxy.url,
      api: ['eth'],
      hardfork: 'prague',
      cache: false,
    })
    try {
      expect(await service.request({ jsonrpc: '2.0', id: 'x', method: 'eth_foo', params: nested(10_000) })).toEqual({
        jsonrpc: '2.0',
        id: 'x',
        error: tooDeep,
      })
      expect(
        await service.request([
          { jsonrpc: '2.0', id: 1, method: 'eth_foo', params: nested(10_000) },
          { jsonrpc: '2.0', id: 2, method: 'eth_chainId' },
        ]),
      ).toEqual([
        { jsonrpc: '2.0', id: 1, error: tooDeep },
        { jsonrpc: '2.0', id: 2, result: `0x${anvil.chainId.toString(16)}` },
      ])
      expect(calls('eth_foo')).toBe(0)
    } finally {
      await service.close()
    }
  })
})

describe('ids', () => {
  it('are echoed as their JSON text was received, over HTTP and WebSocket', async () => {
    const ids = ['1e400', '1.50', '123456789012345678901234567890', '"\\u0041"']
    const bodies = ids.map((id) => `{"jsonrpc":"2.0","id":${id},"method":"eth_chainId"}`)
    const want = ids.map((id) => `{"jsonrpc":"2.0","id":${id},"result":"0x${anvil.chainId.toString(16)}"}`)
    expect(await Promise.all(bodies.map(postText))).toEqual(want)
    expect(await overWs(bodies)).toEqual(want)
    expect(await postText(`[${bodies.join(',')}]`)).toBe(`[${want.join(',')}]`)
    // An object as id is not a valid id (geth: hasValidID): answered with a null id.
    expect(JSON.parse(await postText('{"jsonrpc":"2.0","id":{"a":1},"method":"eth_chainId"}'))).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'invalid request' },
    })
  })
})
