import { createHash } from 'node:crypto'
import { type Socket, connect } from 'node:net'
import { request } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import { type SocketServer, createSocketServer } from '../src/node/createSocketServer.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { txByLabel, withDevnet } from './src/devnet.js'
import { openStreamClient } from './src/streamClient.js'
import { rpcResult } from './src/rpc.js'
import { runCli } from './src/runCli.js'

// Issue 32, items 1, 4, 5 and 16: what the transports hold for one client is bounded. Answers
// stream with backpressure on every transport, or past --rpc.response.limit end in a clear error;
// a client pipelining without reading stops being read, the others are served; 50 struct-log traces
// at once all complete; a body over the limit gets its 413 however it is sent.

let devnet: Devnet
let edge: RunningEdgetrace
let dir: string

const envelope = (id: number, method: string, params: unknown[] = []) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params })

/**
 * A client of `url` reading whole answers however big: chunks kept apart until the one that ends a
 * message (test/src/streamClient's IPC reader re-splits all it holds on each chunk: quadratic on
 * 100 MB). WebSocket's client keeps a message's fragments as buffers too.
 */
async function openBigClient(url: string) {
  if (url.startsWith('ws')) return openStreamClient(url)
  const socket = connect(url.slice('unix://'.length))
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  // Bytes kept as buffers (outside the JavaScript heap the test measures) until a message is whole.
  const inbox: Buffer[] = []
  let parts: Buffer[] = []
  let wake: (() => void) | undefined
  socket.on('data', (chunk: Buffer) => {
    let at = chunk.indexOf(0x0a)
    let from = 0
    while (at >= 0) {
      parts.push(chunk.subarray(from, at))
      inbox.push(Buffer.concat(parts))
      parts = []
      from = at + 1
      at = chunk.indexOf(0x0a, from)
    }
    if (from < chunk.length) parts.push(chunk.subarray(from))
    wake?.()
  })
  return {
    send: (text: string) => void socket.write(text),
    async next(deadline: number): Promise<string | undefined> {
      while (inbox.length === 0 && Date.now() < deadline)
        await new Promise<void>((resolve) => {
          wake = resolve
          setTimeout(resolve, 50)
        })
      return inbox.shift()?.toString()
    },
    close: () => socket.destroy(),
  }
}

/** How long `run` took, in milliseconds. */
async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await run()
  return performance.now() - started
}

async function post(url: string, body: string): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  return res.text()
}

/**
 * A call whose struct logs are large: an endless loop (JUMPDEST PUSH1 1 PUSH2 0x1fe0 MSTORE PUSH1 0
 * JUMP) over 8 KiB of memory, each step's memory shown; `gas` bounds it (out of gas at the end).
 */
const LOOPING = '0x00000000000000000000000000000000000000bb'
const memoryLoop = (gas: number) => [
  { to: LOOPING, gas: `0x${gas.toString(16)}` },
  'latest',
  { enableMemory: true, timeout: '120s', stateOverrides: { [LOOPING]: { code: '0x5b6001611fe052600056' } } },
]

beforeAll(async () => {
  devnet = await withDevnet()
  dir = mkdtempSync(join(tmpdir(), 'edgetrace-bounds-'))
  edge = await startEdgetrace({
    upstream: devnet.anvil.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'debug'],
    workers: { threads: 0 },
    socketUrl: `unix://${join(dir, 'edgetrace.ipc')}`,
    graphql: true,
  })
}, 120_000)
afterAll(async () => {
  await edge?.close()
  await devnet?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('item 1: big answers on every transport', () => {
  it('a 100 MB struct-log answer over WebSocket and IPC arrives whole while the server holds a fraction of it', async () => {
    const call = memoryLoop(43_000)
    const index = JSON.parse(
      await post(
        edge.url,
        envelope(1, 'debug_traceCall', [call[0], call[1], { ...(call[2] as object), stepIndex: true }]),
      ),
    ) as { result: { stepIndex: { steps: number } } }
    const steps = index.result.stepIndex.steps
    expect(steps).toBeGreaterThan(4000)
    for (const url of [edge.wsUrl, edge.socketUrl!]) {
      const client = await openBigClient(url)
      const base = process.memoryUsage().heapUsed
      let peak = base
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().heapUsed)
      }, 5)
      client.send(envelope(7, 'debug_traceCall', call))
      const text = await client.next(Date.now() + 120_000)
      clearInterval(sampler)
      expect(text?.length).toBeGreaterThan(100_000_000)
      const answer = JSON.parse(text!) as { id: number; result: { structLogs: unknown[]; failed: boolean } }
      expect(answer.id).toBe(7)
      expect(answer.result.structLogs.length).toBe(steps)
      expect(answer.result.failed).toBe(true)
      // Built whole (before: the answer's text and its parts), the server's heap grew by twice the
      // answer; streamed, by what is in flight and garbage not yet collected (20 MB or so).
      expect(peak - base).toBeLessThan(text!.length / 2)
      client.send(envelope(8, 'eth_chainId'))
      expect(JSON.parse((await client.next(Date.now() + 10_000))!)).toEqual({ jsonrpc: '2.0', id: 8, result: '0x7a69' })
      client.close()
    }
  }, 300_000)

  it('--rpc.response.limit: an answer past it is the -32003 error naming the flag, on HTTP, WebSocket and TCP; the connection goes on', async () => {
    const bounded = await startEdgetrace({
      upstream: devnet.anvil.url,
      port: 0,
      hardfork: 'prague',
      api: ['eth', 'debug'],
      workers: { threads: 0 },
      maxResponseBytes: 100_000,
      socketUrl: 'tcp://127.0.0.1:0',
    })
    try {
      const tx = txByLabel(devnet, 'fill the Inspector')
      const trace = envelope(3, 'debug_traceTransaction', [tx.hash, { enableMemory: true }])
      const error = { code: -32003, message: 'response too large: over 100000 bytes (see --rpc.response.limit)' }
      const overHttp = JSON.parse(await post(bounded.url, trace))
      expect(overHttp.error).toEqual(error)
      // What went out before the limit is closed, as a streamed result that fails (Erigon's shape).
      expect(overHttp.result.structLogs.length).toBeGreaterThan(10)
      for (const url of [bounded.wsUrl, bounded.socketUrl!]) {
        const client = await openStreamClient(url)
        client.send(trace)
        const answer = JSON.parse((await client.next(Date.now() + 30_000))!)
        expect(answer.error).toEqual(error)
        client.send(envelope(4, 'eth_chainId'))
        expect(JSON.parse((await client.next(Date.now() + 10_000))!).result).toBe('0x7a69')
        client.close()
      }
      // Under the limit, answers are whole.
      const small = JSON.parse(
        await post(
          bounded.url,
          envelope(5, 'debug_traceTransaction', [txByLabel(devnet, 'plain ether transfer').hash]),
        ),
      )
      expect(small.result.failed).toBe(false)
      // A batch's answers count together, as geth counts them: past the limit, the rest are the error.
      const batch = JSON.parse(
        await post(
          bounded.url,
          `[${Array.from({ length: 40 }, (_, i) => envelope(i, 'eth_getCode', [devnet.contracts.Inspector, 'latest'])).join(',')}]`,
        ),
      ) as { result?: string; error?: unknown }[]
      expect(batch[0]!.result).toMatch(/^0x/)
      expect(batch.at(-1)!.error).toEqual(error)
    } finally {
      await bounded.close()
    }
  }, 120_000)

  it('--rpc.response.limit on the command line', async () => {
    const run = await runCli(
      ['--upstream', devnet.anvil.url, '--http.port', '0', '--hardfork', 'prague', '--rpc.response.limit', '2000'],
      /listening:\s+http:\/\/\S+/,
    )
    try {
      const url = /listening:\s+(http:\/\/\S+)/.exec(run.output)![1]!
      const answer = JSON.parse(await post(url, envelope(1, 'eth_getCode', [devnet.contracts.Inspector, 'latest'])))
      expect(answer).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32003, message: 'response too large: over 2000 bytes (see --rpc.response.limit)' },
      })
      expect(JSON.parse(await post(url, envelope(2, 'eth_chainId'))).result).toBe('0x7a69')
    } finally {
      run.kill()
    }
    const bad = await runCli(['--upstream', devnet.anvil.url, '--rpc.response.limit', '-1'], /never/)
    expect(bad.output).toContain('--rpc.response.limit expects a whole number')
  }, 60_000)
})

describe('item 4: a client pipelining without reading', () => {
  let server: SocketServer
  beforeAll(async () => {
    server = await createSocketServer({ handler: edge.handler, url: 'tcp://127.0.0.1:0', maxQueuedBytes: 1024 * 1024 })
  })
  afterAll(() => server?.close())

  it('is not read past its bounds while another client is answered at once; then gets every answer', async () => {
    const code: string = await rpcResult(edge.url, 'eth_getCode', [devnet.contracts.Inspector, 'latest'])
    const answerBytes = code.length + 40
    expect(answerBytes).toBeGreaterThan(2_000)
    const [host, port] = server.url.slice('tcp://'.length).split(':') as [string, string]
    const flood: Socket = connect(Number(port), host)
    await new Promise<void>((resolve) => flood.once('connect', () => resolve()))
    flood.pause() // reads nothing until told
    const count = 20_000
    const requests = Array.from({ length: count }, (_, i) =>
      envelope(i, 'eth_getCode', [devnet.contracts.Inspector, 'latest']),
    ).join('\n')
    flood.write(requests)

    let mostQueued = 0
    const base = process.memoryUsage().heapUsed
    let peak = base
    const watch = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed)
      for (const c of server.connections()) mostQueued = Math.max(mostQueued, c.queuedBytes)
    }, 5)
    const probe = await openStreamClient(server.url)
    const latencies: number[] = []
    for (let i = 0; i < 40; i++) {
      const started = performance.now()
      probe.send(envelope(i, 'eth_chainId'))
      expect(JSON.parse((await probe.next(Date.now() + 10_000))!).result).toBe('0x7a69')
      latencies.push(performance.now() - started)
      await new Promise((r) => setTimeout(r, 25))
    }
    probe.close()
    clearInterval(watch)
    // The unread bound (1 MiB here), plus the answers in flight when it was reached (64 at most).
    expect(mostQueued).toBeLessThan(1024 * 1024 + 64 * answerBytes)
    expect(Math.max(...latencies)).toBeLessThan(1000)
    // Before, every answer was written at once and held until read: the heap grew by 430 MB here
    // (20,000 answers of 3.4 KB, as strings); now by what is in flight and garbage (about 20 MB).
    expect(peak - base).toBeLessThan(100 * 1024 * 1024)

    // Reading now, it gets every answer.
    let answered = 0
    let rest = ''
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${answered} of ${count} answers`)), 120_000)
      flood.on('data', (chunk: Buffer) => {
        const lines = (rest + chunk.toString()).split('\n')
        rest = lines.pop()!
        answered += lines.length
        if (answered === count) {
          clearTimeout(timer)
          resolve()
        }
      })
      flood.resume()
    })
    flood.destroy()
  }, 180_000)
})

describe('item 5: heavy traces at once', () => {
  it('50 struct-log debug_traceTransaction at once over HTTP all complete, identical and parseable', async () => {
    const tx = txByLabel(devnet, 'fill the Inspector')
    // Alone, each runs in tens of milliseconds: a tracer timeout of 20 times that (1 s at least) holds
    // when they take turns, not when all 50 share the CPU at once. Relative to one trace alone, as
    // this machine runs it now: a loaded machine stretches both.
    const aloneMs = await timed(() =>
      post(edge.url, envelope(1, 'debug_traceTransaction', [tx.hash, { enableMemory: true }])),
    )
    const timeout = `${Math.max(1000, Math.ceil(20 * aloneMs))}ms`
    const body = envelope(1, 'debug_traceTransaction', [tx.hash, { enableMemory: true, timeout }])
    const texts = await Promise.all(Array.from({ length: 50 }, () => post(edge.url, body)))
    const first = JSON.parse(texts[0]!)
    expect(first.error).toBeUndefined()
    expect(first.result.structLogs.length).toBeGreaterThan(1000)
    for (const text of texts) expect(text).toBe(texts[0])
  }, 120_000)

  it('50 struct-log debug_traceCall of 200 ms each at once: all complete within a tracer timeout of 10 times one alone (3 s at least), one per core at a time', async () => {
    // Before, all 50 shared the CPU and all ran past 3 s (each answer cut by "execution timeout"):
    // 50 sharing take 25 times one alone and more, 2 per core at a time about twice one alone.
    const looping = '0x00000000000000000000000000000000000000aa'
    const call = (timeout: string) =>
      envelope(1, 'debug_traceCall', [
        { to: looping, gas: '0x61a80' },
        'latest',
        { timeout, stateOverrides: { [looping]: { code: '0x5b600056' } } },
      ])
    let alone = ''
    const aloneMs = await timed(async () => {
      alone = await post(edge.url, call('1m'))
    })
    const body = call(`${Math.max(3000, Math.ceil(10 * aloneMs))}ms`)
    // Each 6.6 MB answer is hashed as it arrives (50 held whole would weigh on this process).
    const digest = () =>
      new Promise<{ hash: string; tail: string }>((resolve, reject) => {
        const hash = createHash('sha256')
        let tail = ''
        const req = request(edge.url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
          res.on('data', (chunk: Buffer) => {
            hash.update(chunk)
            tail = (tail + chunk.toString('latin1')).slice(-100)
          })
          res.on('end', () => resolve({ hash: hash.digest('hex'), tail }))
          res.on('error', reject)
        })
        req.on('error', reject)
        req.end(body)
      })
    expect(JSON.parse(alone).result.failed).toBe(true) // out of gas, at the end
    const expected = createHash('sha256').update(alone).digest('hex')
    const all = await Promise.all(Array.from({ length: 50 }, digest))
    expect(all.filter((a) => a.hash !== expected).map((a) => a.tail)).toEqual([])
  }, 180_000)
})

describe('a struct-log trace whose reader pauses', () => {
  // geth renders a trace whole before it writes a byte, so its tracer timeout never counts the
  // client's reading. Streamed here, the time the trace waits for its reader is not counted either:
  // a client that stops reading for 4 s still gets the whole ~200 ms trace within a 2 s timeout.
  it('gets the whole answer: the waits for it to read do not count against the tracer timeout', async () => {
    const looping = '0x00000000000000000000000000000000000000aa'
    const body = envelope(1, 'debug_traceCall', [
      { to: looping, gas: '0x61a80' },
      'latest',
      { timeout: '2s', stateOverrides: { [looping]: { code: '0x5b600056' } } },
    ])
    const text = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = []
      const req = request(edge.url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        res.once('data', (chunk: Buffer) => {
          chunks.push(chunk)
          res.pause()
          setTimeout(() => {
            res.on('data', (more: Buffer) => chunks.push(more))
            res.resume()
          }, 4000)
        })
        res.on('end', () => resolve(Buffer.concat(chunks).toString()))
        res.on('error', reject)
      })
      req.on('error', reject)
      req.end(body)
    })
    const json = JSON.parse(text)
    expect(json.error).toBeUndefined()
    expect(json.result.failed).toBe(true) // out of gas at the end, not cut by the timeout
    expect(text.length).toBeGreaterThan(5_000_000) // far past what the socket buffers while paused
  }, 60_000)
})

describe('item 16: a request body over the limit', () => {
  const body = Buffer.alloc(10 * 1024 * 1024, 0x20)

  /** 10 MB on a raw socket, with a length or chunked: the status line the client read, or its socket's error. */
  const overSocket = (chunked: boolean) =>
    new Promise<string>((resolve) => {
      const url = new URL(edge.url)
      const socket = connect(Number(url.port), url.hostname)
      let got = ''
      socket.on('data', (chunk: Buffer) => {
        got += chunk.toString()
      })
      socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message))
      socket.on('close', () => resolve(got.split('\r\n')[0]!))
      const length = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${body.length}`
      socket.write(`POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${length}\r\n\r\n`)
      if (!chunked) socket.write(body)
      else {
        for (let at = 0; at < body.length; at += 64 * 1024)
          socket.write(`10000\r\n${body.subarray(at, at + 64 * 1024).toString()}\r\n`)
        socket.write('0\r\n\r\n')
      }
    })

  /** The same with fetch: the status, or the error under its failure (EPIPE before). */
  const overFetch = (path = '/') =>
    fetch(new URL(path, edge.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
      async (res) => {
        await res.text()
        return `HTTP/1.1 ${res.status} Payload Too Large`
      },
      (err: Error & { cause?: { code?: string } }) => err.cause?.code ?? err.message,
    )

  it('gets its 413, 5 times of 5, sent with a length, chunked or by fetch, on / and /graphql (before: EPIPE 3 times of 5)', async () => {
    const expected = Array(5).fill('HTTP/1.1 413 Payload Too Large')
    for (const send of [
      () => overSocket(false),
      () => overSocket(true),
      () => overFetch(),
      () => overFetch('/graphql'),
    ]) {
      const statuses: string[] = []
      for (let i = 0; i < 5; i++) statuses.push(await send())
      expect(statuses).toEqual(expected)
    }
    expect(await rpcResult(edge.url, 'eth_chainId')).toBe('0x7a69')
  }, 60_000)
})
