import { type ChildProcess, spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { type Devnet, startDevnet } from '../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { rpc, rpcResult } from './src/rpc.js'
import { CLI_ARGS } from './src/cliCommand.js'

// What one JavaScript tracer may cost others: nothing past its own timeout, its own thread and its
// own bounded answer. Each case runs against a real server (in this process, or spawned as the CLI
// where the process's survival is the point) in front of the devnet's anvil.
const ROOT = resolve(import.meta.dirname, '..')
const ENDLESS = '{ step: function() { for (;;) {} }, fault: function() {}, result: function() { return 1 } }'
const COUNTER = '{ n: 0, step: function() { this.n++ }, fault: function() {}, result: function() { return this.n } }'

/** The time a call takes, with its answer. */
async function timed(url: string, method: string, params: unknown[]) {
  const started = Date.now()
  const answer = await rpc(url, method, params)
  return { answer, ms: Date.now() - started }
}

/**
 * Watches a server's JavaScript-tracer pool for the threads started for its requests, from now on:
 * what each request heard (`heard()`: 'starting', 'ready', or nothing when it was given a thread up
 * or queued behind a busy one) and how long its thread took to start (`all()`, `lastStartMs()`: from
 * 'starting' to 'ready', 0 when none started for it). The tracer's timeout does not count that
 * start, so a cold pool's bounds are the warm one's plus it (a loaded machine takes seconds).
 */
function watchStarts(server: RunningEdgetrace) {
  const pool = server.engine.jsTracerWorkers!
  const run = pool.run.bind(pool)
  const starts: { starting?: number; ready?: number }[] = []
  pool.run = (text, signal, onTxStart, onColdStart) => {
    const start: { starting?: number; ready?: number } = {}
    starts.push(start)
    return run(text, signal, onTxStart, (phase) => {
      start[phase] = Date.now()
      onColdStart?.(phase)
    })
  }
  const startMs = (s: { starting?: number; ready?: number } | undefined) =>
    s?.starting === undefined ? 0 : (s.ready ?? Date.now()) - s.starting
  return {
    lastStartMs: () => startMs(starts.at(-1)),
    /** The phases each request heard, in the order the requests reached the pool. */
    heard: () => starts.map((s) => Object.keys(s)),
    all: () => starts.map(startMs),
  }
}

/** Starts the CLI as `npm start` runs it; resolves with its JSON-RPC URL once it listens. */
function startCli(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...CLI_ARGS, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no banner: ${output}`)), 90_000)
    const onData = (d: Buffer) => {
      output += d.toString()
      const url = /\n(?:open|JSON-RPC at) (http:\/\/\S+)/.exec(output)?.[1]?.replace(/\/$/, '')
      if (url) {
        clearTimeout(timer)
        done({ child, url })
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.on('exit', () => fail(new Error(`the CLI exited: ${output}`)))
  })
}

describe('JavaScript tracers: timeouts, cancellation, isolation and bounded results', () => {
  let devnet: Devnet
  let warm: RunningEdgetrace
  let tx: string
  const start = (threads: number, isWarm: boolean) =>
    startEdgetrace({
      upstream: devnet.anvil.url,
      port: 0,
      hardfork: 'prague',
      api: ['eth', 'debug'],
      workers: { threads, warm: isWarm },
    })
  beforeAll(async () => {
    devnet = await startDevnet()
    tx = devnet.transactions.find((t) => t.label === 'recursion 5 deep')!.hash
    warm = await start(1, true)
  }, 120_000)
  afterAll(async () => {
    await warm?.close()
    await devnet?.stop()
  })

  it('an endless tracer answers execution timeout within its timeout + 1 s of its thread being up, on a cold pool (its thread’s start not counted) and on a warm one', async () => {
    const cold = await start(1, false)
    try {
      for (const [server, isCold] of [
        [cold, true],
        [warm, false],
      ] as const) {
        const url = server.url
        const starts = watchStarts(server)
        const { answer, ms } = await timed(url, 'debug_traceTransaction', [tx, { tracer: ENDLESS, timeout: '1s' }])
        expect(answer.error, url).toEqual({ code: -32000, message: 'execution timeout' })
        // A cold pool starts a thread for the request, and the tracer's clock waits for it.
        expect(starts.heard(), url).toEqual([isCold ? ['starting', 'ready'] : []])
        const startMs = starts.lastStartMs()
        expect(ms - startMs, url).toBeGreaterThanOrEqual(1000)
        expect(ms - startMs, url).toBeLessThan(2500)
        // The thread it ended is replaced (a start for the next request, not counted): the next
        // tracer is served, with the default timeout (5 s) whatever that start takes.
        expect(await rpcResult(url, 'debug_traceTransaction', [tx, { tracer: COUNTER }])).toBeGreaterThan(100)
        expect(starts.heard()[1], url).toEqual(['starting', 'ready'])
      }
    } finally {
      await cold.close()
    }
    // In a block, each transaction has the tracer's timeout (counted from its start).
    const block = `0x${devnet.transactions.find((t) => t.hash === tx)!.blockNumber.toString(16)}`
    const { answer, ms } = await timed(warm.url, 'debug_traceBlockByNumber', [
      block,
      { tracer: ENDLESS, timeout: '1s' },
    ])
    expect(answer.error).toEqual({ code: -32000, message: 'execution timeout' })
    expect(ms).toBeLessThan(2500)
  }, 120_000)

  it('a request queued behind another client’s endless tracer waits no longer than its own timeout; a client that goes away ends its tracer’s thread, and the next client is served at once', async () => {
    // One thread: an endless tracer with a long timeout holds it.
    const leaving = new AbortController()
    const holder = fetch(warm.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'debug_traceTransaction',
        params: [tx, { tracer: ENDLESS, timeout: '60s' }],
      }),
      signal: leaving.signal,
    }).catch(() => 'gone')
    await new Promise((r) => setTimeout(r, 500))
    const queued = await timed(warm.url, 'debug_traceTransaction', [tx, { tracer: COUNTER, timeout: '1s' }])
    expect(queued.answer.error).toEqual({ code: -32000, message: 'execution timeout' })
    expect(queued.ms).toBeLessThan(2500)
    // The holder's client disconnects: its thread is ended and a fresh one serves the next client.
    leaving.abort()
    expect(await holder).toBe('gone')
    const next = await timed(warm.url, 'debug_traceTransaction', [tx, { tracer: COUNTER, timeout: '20s' }])
    expect(next.answer.result).toBeGreaterThan(100)
    expect(next.ms).toBeLessThan(10_000)
    // Over WebSocket alike: the connection closes, its tracer's thread is ended.
    const socket = new WebSocket(warm.wsUrl)
    await new Promise<void>((done, fail) => {
      socket.once('open', () => done())
      socket.once('error', fail)
    })
    socket.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'debug_traceTransaction',
        params: [tx, { tracer: ENDLESS, timeout: '60s' }],
      }),
    )
    await new Promise((r) => setTimeout(r, 500))
    socket.terminate()
    const afterWs = await timed(warm.url, 'debug_traceTransaction', [tx, { tracer: COUNTER, timeout: '20s' }])
    expect(afterWs.answer.result).toBeGreaterThan(100)
    expect(afterWs.ms).toBeLessThan(10_000)
  }, 60_000)

  it('a tracer queued behind endless ones on a cold pool is served once their threads are ended (a fresh thread starts for it)', async () => {
    const cold = await start(1, false)
    try {
      const starts = watchStarts(cold)
      const runs = [ENDLESS, ENDLESS, COUNTER].map((tracer) =>
        timed(cold.url, 'debug_traceTransaction', [tx, { tracer, timeout: tracer === COUNTER ? '15s' : '1s' }]),
      )
      const [first, second, clean] = await Promise.all(runs)
      // The thread starts for the request the pool got first (its start not counted); the others
      // wait for that request, counted: an endless tracer's timeout passes in the queue.
      expect(starts.heard().sort()).toEqual([[], [], ['starting', 'ready']])
      const startMs = Math.max(...starts.all())
      for (const endless of [first!, second!]) {
        expect(endless.answer.error).toEqual({ code: -32000, message: 'execution timeout' })
        expect(endless.ms - startMs).toBeLessThan(2500)
      }
      expect(clean!.answer.result).toBeGreaterThan(100)
      expect(clean!.ms).toBeLessThan(10_000)
    } finally {
      await cold.close()
    }
  }, 60_000)

  it('what a tracer sets on the host’s objects or on Error, and promise jobs it leaves running, do not reach the next request, which answers correctly and promptly', async () => {
    const url = warm.url
    // A tracer that catches a host helper's interrupt, rewires its class, and sets the realm-wide
    // stack hooks of the host's Error (the class's parent); its own request fails on the interrupt.
    const meddler = `{ step: function(log) {
        try { log.stack.peek(1e9) } catch (e) {
          var HostError = Object.getPrototypeOf(e.constructor)
          HostError.prepareStackTrace = function() { return 'PWNED' }
          HostError.stackTraceLimit = 0
          try { Object.defineProperty(e.constructor, Symbol.hasInstance, { value: function() { return false } }) } catch (x) {}
          try { Object.getPrototypeOf(e).planted = 'PWNED' } catch (x) {}
        } },
      fault: function() {}, result: function() { return 1 } }`
    expect((await rpc(url, 'debug_traceTransaction', [tx, { tracer: meddler }])).error?.message).toMatch(
      /^tracer accessed out of bound stack/,
    )
    // The next tracer finds the host's Error as it was (it reports it in its own interrupt's message).
    const probe = `{ step: function(log) {
        try { log.stack.peek(1e9) } catch (e) {
          var HostError = Object.getPrototypeOf(e.constructor)
          e.message = JSON.stringify([HostError.stackTraceLimit, String(HostError.prepareStackTrace(new Error('q'), [])), e.planted])
        } },
      fault: function() {}, result: function() { return 1 } }`
    const seen = (await rpc(url, 'debug_traceTransaction', [tx, { tracer: probe }])).error?.message as string
    const [limit, prepared, planted] = JSON.parse(seen.slice(0, seen.indexOf('    in server-side')))
    expect([limit, prepared === 'PWNED', planted]).toEqual([10, false, null])
    // A host interrupt is worded as geth's (bare), whatever the meddler did to its class.
    const misuse = `{ step: function(log) { log.stack.peek(1e9) }, fault: function() {}, result: function() { return 1 } }`
    expect((await rpc(url, 'debug_traceTransaction', [tx, { tracer: misuse }])).error?.message).toMatch(
      /^tracer accessed out of bound stack: size \d+, index 1000000000 {4}in server-side tracer function 'step'$/,
    )
    // Endless promise jobs keep their thread from going idle: that thread is ended at the tracer's
    // timeout, never handed the next request.
    const looping = `{ fault: function() {}, result: function() {
      Promise.resolve().then(function loop() { return Promise.resolve().then(loop) }); return 1 } }`
    const loop = await timed(url, 'debug_traceTransaction', [tx, { tracer: looping, timeout: '1s' }])
    expect(loop.answer.error).toEqual({ code: -32000, message: 'execution timeout' })
    expect(loop.ms).toBeLessThan(2500)
    const next = await timed(url, 'debug_traceTransaction', [tx, { tracer: COUNTER }])
    expect(next.answer.result).toBeGreaterThan(100)
    expect(next.ms).toBeLessThan(10_000)
  }, 60_000)

  it('no error text or stack a client gets names a host file or path', async () => {
    const texts: string[] = []
    const tracers = [
      `{ fault: function() {}, result: function() { return String(new Error('x').stack) } }`,
      `{ fault: function() {}, result: function() { try { toHex(5) } catch (e) { return [String(e.stack), e.message] } } }`,
      `{ fault: function() {}, result: function() { try { null.x } catch (e) { return String(e.stack) } } }`,
      `{ fault: function() {}, result: function() { try { log.x() } catch (e) { return String(e.stack) } } }`,
      `{ step: function(log) { log.stack.peek(1e9) }, fault: function() {}, result: function() { return 1 } }`,
      `{ step: function(log, db) { db.getBalance(5) }, fault: function() {}, result: function() { return 1 } }`,
      `{ fault: function() {}, result: function() { throw new Error('thrown') } }`,
      `{ fault: function() {}, result: function() { return import('node:fs') } }`,
      `{ fault: function() {}, result: }`,
      `{ fault: function() {}, result: function() { return Function('return this')() } }`,
    ]
    for (const tracer of tracers) {
      const answer = await rpc(warm.url, 'debug_traceTransaction', [tx, { tracer }])
      texts.push(JSON.stringify(answer))
    }
    for (const text of texts) expect(text).not.toMatch(/\/work\/|node_modules|file:\/\/|\/src\/|\.ts:\d|\.js:\d/)
    expect(texts[0]).toBe('{"jsonrpc":"2.0","id":1,"result":""}')
  }, 60_000)

  it('a result past the bound is an error made in the tracer’s thread (one result, or a block’s together); a 200 MB one leaves the server process alive and serving', async () => {
    const big = (chars: number) => `{ fault: function() {}, result: function() { return 'x'.repeat(${chars}) } }`
    const one = await rpc(warm.url, 'debug_traceTransaction', [tx, { tracer: big(70e6) }])
    expect(one.error?.message).toMatch(/^JavaScript tracer result too large: 70000002 characters of JSON/)
    // Four transactions of 20 MB each: each under the bound, their block's answer over it.
    const block = devnet.transactions.find((t) => t.label === 'block of several: recursion')!.blockNumber
    const many = await rpc(warm.url, 'debug_traceBlockByNumber', [`0x${block.toString(16)}`, { tracer: big(20e6) }])
    expect(many.error?.message).toMatch(/^JavaScript tracer result too large: \d+ characters of JSON/)
    expect(await rpcResult(warm.url, 'debug_traceTransaction', [tx, { tracer: COUNTER }])).toBeGreaterThan(100)

    const { child, url } = await startCli([
      '--upstream',
      devnet.anvil.url,
      '--http.port',
      '0',
      '--hardfork',
      'prague',
      '--workers',
      '1',
    ])
    try {
      const huge = await rpc(url, 'debug_traceTransaction', [tx, { tracer: big(200e6), timeout: '60s' }])
      // Over the bound, or past the thread's heap: an error either way, and the process lives on.
      expect(huge.error?.message).toMatch(/^JavaScript tracer (result too large|ran out of memory)/)
      expect(child.exitCode).toBeNull()
      expect(await rpcResult(url, 'eth_chainId', [])).toBe('0x7a69')
      expect(await rpcResult(url, 'debug_traceTransaction', [tx, { tracer: COUNTER }])).toBeGreaterThan(100)
    } finally {
      child.kill('SIGTERM')
    }
  }, 180_000)
})
