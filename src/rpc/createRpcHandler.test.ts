import { describe, expect, it } from 'vitest'
import { ServerRpcError } from '../errors/rpc.js'
import { createRpcHandler } from './createRpcHandler.js'
import { MAX_JSON_DEPTH } from './jsonDepth.js'
import { JsonStream } from './jsonStream.js'
import { optional, parseParams, required } from './params.js'
import { parseAddress, parseQuantity } from './parsers.js'

const dispatched: string[] = []

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
        eth_count: async (params) => {
          dispatched.push(String(JSON.stringify(params)).slice(0, 20))
          return 'counted'
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
    // Known but not served here (the handler knows the namespaces it is given: src/rpc/namespaces.ts).
    { name: 'trace', methods: {} },
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
    expect(await call(body(0))).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32000, message: 'failed before writing' },
    })
    expect(await call(body(1))).toEqual({
      jsonrpc: '2.0',
      id: 9,
      result: { items: [1, 2, 3] },
      error: { code: -32000, message: 'failed midway' },
    })
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
    expect(await call('{"jsonrpc":')).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'parse error' },
    })
  })

  it('-32600 on requests that are not JSON-RPC 2.0, and on an empty batch', async () => {
    expect(await call('42')).toMatchObject({ id: null, error: { code: -32600, message: 'invalid request' } })
    expect(await call('{"id":1,"method":"eth_echo"}')).toMatchObject({ id: 1, error: { code: -32600 } })
    expect(await call('{"jsonrpc":"2.0","id":{},"method":"eth_echo"}')).toMatchObject({
      id: null,
      error: { code: -32600 },
    })
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
        message:
          'the method debug_x does not exist/is not available (the debug namespace is not enabled: add debug to --http.api)',
      },
    })
    expect(await call('{"jsonrpc":"2.0","id":1,"method":"trace_block"}')).toMatchObject({
      error: { code: -32601, message: expect.stringContaining('add trace to --http.api') },
    })
  })

  it('-32602 naming the argument and what was expected', async () => {
    const err = (params: unknown) =>
      call(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_echo', params })).then((r) => r.error)
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
    expect(await err([ADDR, 5])).toMatchObject({
      message: 'invalid argument 1: expected a hex quantity (0x-prefixed, no leading zeros), got number 5',
    })
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
      error: {
        code: -32000,
        message: 'batch limit 3 exceeded (can increase by --rpc.batch.limit). Requested batch of size: 6',
      },
    })
  })

  it("holds a stream's structure until content: an error before any element is a plain error, after one it rides beside the result", async () => {
    const list = (n: number, failAt?: number) =>
      handler.handleText(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_list', params: [n, failAt] }))
    expect(await list(0)).toBe('{"jsonrpc":"2.0","id":1,"result":[]}')
    expect(await list(3)).toBe('{"jsonrpc":"2.0","id":1,"result":[0,1,2]}')
    expect(await list(3, 0)).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"element 0 failed"}}')
    expect(await list(3, 2)).toBe(
      '{"jsonrpc":"2.0","id":1,"result":[0,1],"error":{"code":-32000,"message":"element 2 failed"}}',
    )
    // Nothing is written before the first content.
    const chunks: string[] = []
    await handler.handleTextStreaming(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_list', params: [2] }),
      (c) => {
        chunks.push(c)
      },
    )
    expect(chunks[0]).toBe('{"jsonrpc":"2.0","id":1,"result":[0')
  })

  describe('nesting deeper than the limit', () => {
    const nest = (levels: number, inner = '') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`
    // The request object is level 1, params level 2: params nesting `levels` arrays make it levels + 1 deep.
    const request = (id: string, levels: number, method = 'eth_count') =>
      `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${nest(levels)}}`
    const tooDeep = {
      code: -32600,
      message: `invalid request: nesting too deep (at most ${MAX_JSON_DEPTH} levels of arrays and objects)`,
    }

    it('refuses a request deeper than the limit before dispatch, over text and as an object alike', async () => {
      dispatched.length = 0
      expect(await call(request('1', MAX_JSON_DEPTH - 1))).toEqual({ jsonrpc: '2.0', id: 1, result: 'counted' })
      expect(dispatched).toHaveLength(1)
      for (const levels of [MAX_JSON_DEPTH, 10_000, 200_000]) {
        expect(await call(request('"deep"', levels))).toEqual({ jsonrpc: '2.0', id: 'deep', error: tooDeep })
        expect(await handler.handleMessage(JSON.parse(request('"deep"', levels)))).toEqual({
          jsonrpc: '2.0',
          id: 'deep',
          error: tooDeep,
        })
      }
      expect(dispatched).toHaveLength(1)
      // An invalid id and a deep id are answered with a null id.
      expect(await call(`{"jsonrpc":"2.0","id":{"a":1},"method":"eth_count","params":${nest(500)}}`)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: tooDeep,
      })
      expect(await call(`{"jsonrpc":"2.0","id":${nest(500)},"method":"eth_count"}`)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: tooDeep,
      })
      expect(dispatched).toHaveLength(1)
    })

    it('in a batch, fails only the over-deep request; the others are answered', async () => {
      dispatched.length = 0
      const text = `[${request('1', 2)},${request('2', 5_000)},{"jsonrpc":"2.0","id":3,"method":"eth_echo","params":["${ADDR}"]}]`
      const want = [
        { jsonrpc: '2.0', id: 1, result: 'counted' },
        { jsonrpc: '2.0', id: 2, error: tooDeep },
        { jsonrpc: '2.0', id: 3, result: { address: ADDR, n: null } },
      ]
      expect(await call(text)).toEqual(want)
      expect(await handler.handleMessage(JSON.parse(text))).toEqual(want)
      expect(dispatched).toEqual(['[[]]', '[[]]'])
      // A deep request inside a batch too big is still the batch limit's error, as before.
      expect((await call(`[${[1, 2, 3, 4].map((i) => request(`${i}`, 300)).join(',')}]`)).error.message).toMatch(
        /^batch limit 3 exceeded/,
      )
    })

    it('answers no over-deep notification (as geth answers no notification); one with an invalid envelope gets a null id', async () => {
      dispatched.length = 0
      const notification = (members: string) => `{${members}"params":${nest(500)}}`
      for (const text of [
        notification('"jsonrpc":"2.0","method":"eth_count",'),
        notification('"method":"eth_nope","jsonrpc":"\\u0032.0",'), // escapes decoded, any method name
        notification('"jsonrpc":"1.0","jsonrpc":"2.0","method":5,"method":"eth_count",'), // the last member counts, as JSON.parse keeps
        notification('"jsonrpc":"2.0","method":"eth_count","params":[],'), // the deep params are the last ones
      ]) {
        expect(await handler.handleText(text), text).toBeUndefined()
        expect(await handler.handleMessage(JSON.parse(text)), text).toBeUndefined()
      }
      for (const text of [
        notification('"method":"eth_count",'),
        notification('"jsonrpc":"2.0",'),
        notification('"jsonrpc":"2.0","method":"",'),
        notification('"jsonrpc":"2.0","method":["eth_count"],'),
        notification('"jsonrpc":2,"method":"eth_count",'),
      ]) {
        expect(await call(text), text).toEqual({ jsonrpc: '2.0', id: null, error: tooDeep })
        expect(await handler.handleMessage(JSON.parse(text)), text).toEqual({
          jsonrpc: '2.0',
          id: null,
          error: tooDeep,
        })
      }
      // In a batch: the others are answered; a batch of such notifications only owes nothing.
      const deepNotification = notification('"jsonrpc":"2.0","method":"eth_count",')
      const batch = `[${deepNotification},{"jsonrpc":"2.0","id":1,"method":"eth_count"},"x"]`
      const want = [
        { jsonrpc: '2.0', id: 1, result: 'counted' },
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } },
      ]
      expect(await call(batch)).toEqual(want)
      expect(await handler.handleMessage(JSON.parse(batch))).toEqual(want)
      expect(await handler.handleText(`[${deepNotification},${deepNotification}]`)).toBeUndefined()
      expect(await handler.handleMessage(JSON.parse(`[${deepNotification},${deepNotification}]`))).toBeUndefined()
      expect(dispatched).toHaveLength(2) // the batch's eth_count, over text and as an object
    })

    it('answers a parse error when an over-deep request is not JSON itself, though the brackets balance', async () => {
      for (const inner of [
        '1 2',
        '1,',
        ',',
        '{"a"}',
        '{"a":}',
        '"\\x"',
        'tru',
        '01',
        '[}',
        '"\u0001"'.replace('\\', '\\\\'),
      ]) {
        const text = `{"jsonrpc":"2.0","id":1,"method":"eth_count","params":${nest(300, inner)}}`
        expect(await call(text), text.slice(590)).toEqual({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32700, message: 'parse error' },
        })
        expect(await call(`[${text},${request('2', 1)}]`)).toEqual({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32700, message: 'parse error' },
        })
      }
      // Valid JSON as deep is still the nesting error, strings with brackets and escapes included.
      expect(
        await call(
          `{"jsonrpc":"2.0","id":1,"method":"eth_count","params":${nest(300, '"]}\\"[{", 1e5, {"a":[true,null]}')}}`,
        ),
      ).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: tooDeep,
      })
    })

    it('answers a parse error when the rest of the text is not JSON, and keeps serving', async () => {
      expect(await call(`${request('1', 300)} x`)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'parse error' },
      })
      expect(await call(`[${request('1', 300)},]`)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'parse error' },
      })
      expect(await call(`{"jsonrpc":"2.0","id":1,"params":${nest(300).slice(1)}}`)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'parse error' },
      })
      expect(await call(request('5', 1))).toEqual({ jsonrpc: '2.0', id: 5, result: 'counted' })
    })
  })

  describe('ids echoed as their JSON text was received', () => {
    const raw = (id: string, method = 'eth_count') =>
      handler.handleText(`{"jsonrpc":"2.0","id":${id},"method":"${method}","params":[]}`)

    it('numbers and strings untouched, in results, errors, streams and batches', async () => {
      for (const id of ['1e400', '1.50', '123456789012345678901234567890', '-0', '1E+2', '"\\u0041\\/"', '"😀"']) {
        expect(await raw(id)).toBe(`{"jsonrpc":"2.0","id":${id},"result":"counted"}`)
      }
      expect(await raw('1.50', 'eth_boom')).toBe(
        '{"jsonrpc":"2.0","id":1.50,"error":{"code":-32000,"message":"kaboom"}}',
      )
      expect(await raw('1.50', 'eth_nope')).toMatch(/^\{"jsonrpc":"2\.0","id":1\.50,"error":\{"code":-32601,/)
      expect(await handler.handleText('{"jsonrpc":"2.0","id":1e400,"method":"eth_list","params":[2]}')).toBe(
        '{"jsonrpc":"2.0","id":1e400,"result":[0,1]}',
      )
      expect(await handler.handleText('{"jsonrpc":"2.0","id":1e400,"method":"eth_list","params":[2,0]}')).toBe(
        '{"jsonrpc":"2.0","id":1e400,"error":{"code":-32000,"message":"element 0 failed"}}',
      )
      expect(await handler.handleText('{"id":1.50,"method":"eth_count"}')).toBe(
        '{"jsonrpc":"2.0","id":1.50,"error":{"code":-32600,"message":"invalid request"}}',
      )
      expect(
        await handler.handleText(
          `{"jsonrpc":"2.0","id":1.50,"method":"eth_count","params":${'['.repeat(200)}${']'.repeat(200)}}`,
        ),
      ).toMatch(/^\{"jsonrpc":"2\.0","id":1\.50,"error":\{"code":-32600,"message":"invalid request: nesting too deep/)
      const batch = await handler.handleText(
        '[{"jsonrpc":"2.0","id":1.0,"method":"eth_count"},{"jsonrpc":"2.0","method":"eth_count"}, {"jsonrpc":"2.0","id": 2e0 ,"method":"eth_count"}]',
      )
      expect(batch).toBe(
        '[{"jsonrpc":"2.0","id":1.0,"result":"counted"},{"jsonrpc":"2.0","id":2e0,"result":"counted"}]',
      )
    })

    it('an invalid id (object, array, boolean) is answered with null, as before; objects keep their JS ids', async () => {
      for (const id of ['{"a":1}', '[1]', 'true']) {
        expect(await raw(id)).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}}')
      }
      expect(await raw('null')).toBe('{"jsonrpc":"2.0","id":null,"result":"counted"}')
      expect(await handler.handleMessage({ jsonrpc: '2.0', id: 1.5, method: 'eth_count' })).toEqual({
        jsonrpc: '2.0',
        id: 1.5,
        result: 'counted',
      })
    })
  })
})
