import { describe, expect, it } from 'vitest'
import { ServerRpcError } from '../errors/rpc.js'
import { createRpcHandler } from './createRpcHandler.js'
import { JsonStream } from './jsonStream.js'
import { optional, parseParams, required } from './params.js'
import { parseAddress, parseQuantity } from './parsers.js'

const handler = createRpcHandler({
  enabled: ['eth', 'web3'],
  batchLimit: 3,
  namespaces: [
    {
      name: 'eth',
      methods: {
        eth_echo: async (params) => {
          const [address, n] = parseParams(params, [required(parseAddress), optional(parseQuantity)])
          return { address, n: n === undefined ? null : `0x${n.toString(16)}` }
        },
        // Structure held until content: `[` then, per element, content; fails at element `failAt`.
        eth_list: async (params) =>
          new JsonStream(async (write, hold) => {
            const [n, failAt] = params as [number, number | undefined]
            hold('[')
            try {
              for (let i = 0; i < n; i++) {
                if (i === failAt) throw new ServerRpcError(`element ${i} failed`)
                await write(`${i ? ',' : ''}${i}`)
              }
            } finally {
              hold(']')
            }
          }),
        eth_boom: async () => {
          throw new Error('kaboom')
        },
        eth_stream: async (params) =>
          new JsonStream(async (write) => {
            const [failAfter] = params as [number]
            if (failAfter === 0) throw new ServerRpcError('failed before writing')
            await write('{"items":[1')
            for (let i = 2; i <= 3; i++) await write(`,${i}`)
            if (failAfter > 0) {
              await write(']}')
              throw new ServerRpcError('failed midway')
            }
            await write(']}')
          }),
      },
    },
    { name: 'debug', methods: { debug_x: async () => 1 } },
  ],
})

const ADDR = '0x00000000000000000000000000000000000000aa'
const call = (body: string) => handler.handleText(body).then((t) => (t === undefined ? undefined : JSON.parse(t)))

describe('createRpcHandler', () => {
  it('writes a streamed result in order; an error before it starts is a plain error, after it the error rides beside the partial result', async () => {
    const chunks: string[] = []
    const body = (p: number) => JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'eth_stream', params: [p] })
    await handler.handleTextStreaming(body(-1), (c) => {
      chunks.push(c)
    })
    expect(chunks.length).toBeGreaterThan(2)
    expect(JSON.parse(chunks.join(''))).toEqual({ jsonrpc: '2.0', id: 9, result: { items: [1, 2, 3] } })
    expect(await call(body(0))).toEqual({ jsonrpc: '2.0', id: 9, error: { code: -32000, message: 'failed before writing' } })
    expect(await call(body(1))).toEqual({ jsonrpc: '2.0', id: 9, result: { items: [1, 2, 3] }, error: { code: -32000, message: 'failed midway' } })
    // In a batch, each element is whole JSON too.
    const batch = await call(`[${body(-1)},${body(1)}]`)
    expect(batch).toHaveLength(2)
    expect(batch[1].error.message).toBe('failed midway')
  })

  it('answers a single request', async () => {
    expect(await call(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_echo', params: [ADDR, '0x10'] }))).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: { address: ADDR, n: '0x10' },
    })
  })

  it('-32700 on malformed JSON', async () => {
    expect(await call('{"jsonrpc":')).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } })
  })

  it('-32600 on requests that are not JSON-RPC 2.0, and on an empty batch', async () => {
    expect(await call('42')).toMatchObject({ id: null, error: { code: -32600, message: 'invalid request' } })
    expect(await call('{"id":1,"method":"eth_echo"}')).toMatchObject({ id: 1, error: { code: -32600 } })
    expect(await call('{"jsonrpc":"2.0","id":{},"method":"eth_echo"}')).toMatchObject({ id: null, error: { code: -32600 } })
    expect(await call('[]')).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'empty batch' } })
  })

  it('-32601 for unknown methods, and for disabled namespaces naming the flag', async () => {
    expect(await call('{"jsonrpc":"2.0","id":1,"method":"eth_nope"}')).toMatchObject({
      error: { code: -32601, message: 'the method eth_nope does not exist/is not available' },
    })
    expect(await call('{"jsonrpc":"2.0","id":1,"method":"foo_bar"}')).toMatchObject({ error: { code: -32601 } })
    expect(await call('{"jsonrpc":"2.0","id":1,"method":"debug_x"}')).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32601,
        message: 'the method debug_x does not exist/is not available (the debug namespace is not enabled: add debug to --http.api)',
      },
    })
    expect(await call('{"jsonrpc":"2.0","id":1,"method":"trace_block"}')).toMatchObject({
      error: { code: -32601, message: expect.stringContaining('add trace to --http.api') },
    })
  })

  it('-32602 naming the argument and what was expected', async () => {
    const err = (params: unknown) => call(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_echo', params })).then((r) => r.error)
    expect(await err([])).toEqual({ code: -32602, message: 'missing value for required argument 0' })
    expect(await err([ADDR, '0x1', 3])).toEqual({ code: -32602, message: 'too many arguments, want at most 2' })
    expect(await err({ a: 1 })).toEqual({ code: -32602, message: 'non-array args' })
    expect(await err(['0x12'])).toEqual({
      code: -32602,
      message: 'invalid argument 0: hex string has length 2, want 40 for common.Address',
    })
    expect(await err([ADDR, '0x01'])).toEqual({
      code: -32602,
      message: 'invalid argument 1: expected a hex quantity (0x-prefixed, no leading zeros), got string "0x01"',
    })
    expect(await err([ADDR, 5])).toMatchObject({ message: 'invalid argument 1: expected a hex quantity (0x-prefixed, no leading zeros), got number 5' })
  })

  it('-32000 for method failures', async () => {
    expect(await call('{"jsonrpc":"2.0","id":"a","method":"eth_boom"}')).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      error: { code: -32000, message: 'kaboom' },
    })
  })

  it('answers batches in order, skips notifications, and refuses oversized batches with one object', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'eth_echo', params: [ADDR] },
      { jsonrpc: '2.0', method: 'eth_echo', params: [ADDR] },
      { jsonrpc: '2.0', id: 3, method: 'eth_nope' },
    ]
    const out = await call(JSON.stringify(batch))
    expect(out.map((r: { id: number }) => r.id)).toEqual([1, 3])
    expect(await call(JSON.stringify([batch[1]]))).toBeUndefined()
    expect(await call(JSON.stringify({ jsonrpc: '2.0', method: 'eth_echo', params: [ADDR] }))).toBeUndefined()
    expect(await call(JSON.stringify([...batch, ...batch]))).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'batch limit 3 exceeded (can increase by --rpc.batch.limit). Requested batch of size: 6' },
    })
  })

  it('holds a stream\'s structure until content: an error before any element is a plain error, after one it rides beside the result', async () => {
    const list = (n: number, failAt?: number) => handler.handleText(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_list', params: [n, failAt] }))
    expect(await list(0)).toBe('{"jsonrpc":"2.0","id":1,"result":[]}')
    expect(await list(3)).toBe('{"jsonrpc":"2.0","id":1,"result":[0,1,2]}')
    expect(await list(3, 0)).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"element 0 failed"}}')
    expect(await list(3, 2)).toBe('{"jsonrpc":"2.0","id":1,"result":[0,1],"error":{"code":-32000,"message":"element 2 failed"}}')
    // Nothing is written before the first content.
    const chunks: string[] = []
    await handler.handleTextStreaming(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_list', params: [2] }), (c) => {
      chunks.push(c)
    })
    expect(chunks[0]).toBe('{"jsonrpc":"2.0","id":1,"result":[0')
  })
})
