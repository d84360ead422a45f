import { readFileSync } from 'node:fs'
import { request as httpsRequest } from 'node:https'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { defaultApi } from '../src/node/parseCliArgs.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { DEV_ACCOUNT, rpc, rpcResult } from './src/rpc.js'
import { runCli } from './src/runCli.js'

// Every listener is judged by its own address: HTTPS and a TCP socket on 0.0.0.0 next to HTTP on
// 127.0.0.1 get the namespaces a server open to others gets by default, and no JavaScript tracers
// without --rpc.jstracers, while the loopback listener of the same process keeps tracing.

const TLS = new URL('./fixtures/tls/', import.meta.url)
const key = readFileSync(new URL('localhost.key', TLS))
const cert = readFileSync(new URL('localhost.crt', TLS))

const JS_TRACER = '{ fault: function() {}, result: function() { return "ran" } }'
const JS_OFF =
  'JavaScript tracers are off on this listener: it listens beyond loopback (start it with --rpc.jstracers to serve them)'

let anvil: AnvilInstance
const started: RunningEdgetrace[] = []

beforeAll(async () => {
  anvil = await startAnvil()
  await rpcResult(anvil.url, 'evm_mine', [])
}, 60_000)

afterAll(async () => {
  for (const edge of started) await edge.close()
  await anvil?.stop()
})

/** One call over HTTPS, to 127.0.0.1 whatever address the listener is on. */
function overHttps(url: string, method: string, params: unknown[]): Promise<{ result?: any; error?: any }> {
  const target = url.replace('0.0.0.0', '127.0.0.1')
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      target,
      { method: 'POST', headers: { 'content-type': 'application/json' }, ca: cert },
      (res) => {
        let text = ''
        res.on('data', (d) => {
          text += d
        })
        res.on('end', () => resolve(JSON.parse(text)))
      },
    )
    req.on('error', reject)
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))
  })
}

/** One call over the raw TCP socket, to 127.0.0.1. */
function overTcp(url: string, method: string, params: unknown[]): Promise<{ result?: any; error?: any }> {
  const port = Number(url.match(/:(\d+)$/)![1])
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let text = ''
    socket.on('data', (d) => {
      text += d
      if (text.includes('\n')) {
        socket.destroy()
        resolve(JSON.parse(text))
      }
    })
    socket.on('error', reject)
    socket.on('connect', () => socket.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })))
  })
}

const call = { from: DEV_ACCOUNT, to: DEV_ACCOUNT, value: '0x1' }

async function start(options: { api?: string[]; wsApi?: string[]; jsTracers?: boolean }) {
  const edge = await startEdgetrace({
    upstream: anvil.url,
    host: '127.0.0.1',
    port: 0,
    hardfork: 'prague',
    // What the CLI passes: tracing on loopback, eth,vendor beyond it.
    defaultApi: (loopback) => defaultApi(loopback, false),
    ...(options.api ? { api: options.api } : {}),
    ws: { api: options.wsApi },
    https: { host: '0.0.0.0', port: 0, key, cert },
    socketUrl: 'tcp://0.0.0.0:0',
    workers: { threads: 1 },
    ...(options.jsTracers ? { engine: { jsTracers: true } } : {}),
  })
  started.push(edge)
  return {
    edge,
    http: (method: string, params: unknown[]) => rpc(edge.url, method, params),
    https: (method: string, params: unknown[]) => overHttps(edge.httpsUrl!, method, params),
    tcp: (method: string, params: unknown[]) => overTcp(edge.socketUrl!, method, params),
  }
}

describe('each listener by its own address', () => {
  it('without --http.api: HTTPS and TCP on 0.0.0.0 serve eth,vendor only; HTTP on 127.0.0.1 keeps debug and its JavaScript tracers', async () => {
    const { edge, http, https, tcp } = await start({})
    expect(edge.listeners.map((l) => [l.kind, l.loopback, l.api.join(','), l.jsTracers])).toEqual([
      ['http', true, 'eth,vendor,debug,trace,txpool,web3,net', true],
      ['ws', true, 'eth,vendor,debug,trace,txpool,web3,net', true],
      ['https', false, 'eth,vendor', false],
      ['ws', false, 'eth,vendor', false],
      ['socket', false, 'eth,vendor', false],
    ])
    const traceCall: [string, unknown[]] = ['debug_traceCall', [call, 'latest', { tracer: JS_TRACER }]]
    expect((await http(...traceCall)).result).toBe('ran')
    expect((await http('txpool_status', [])).result).toBeDefined()
    for (const [name, send] of [
      ['https', https],
      ['tcp', tcp],
    ] as const) {
      expect((await send(...traceCall)).error, name).toEqual({
        code: -32601,
        message:
          'the method debug_traceCall does not exist/is not available (the debug namespace is not enabled: add debug to --http.api)',
      })
      for (const method of ['debug_getRawHeader', 'trace_block', 'txpool_content'])
        expect((await send(method, ['latest'])).error?.code, `${name} ${method}`).toBe(-32601)
      expect((await send('eth_chainId', [])).result, name).toBe('0x7a69')
      expect((await send('erigon_blockNumber', [])).result, name).toBeDefined()
    }
  }, 60_000)

  it('with --http.api and --ws.api naming debug: the namespaces are served everywhere, JavaScript tracers still only on loopback', async () => {
    const { http, https, tcp } = await start({ api: ['eth', 'debug'], wsApi: ['eth', 'debug'] })
    expect((await http('debug_traceCall', [call, 'latest', { tracer: JS_TRACER }])).result).toBe('ran')
    for (const [name, send] of [
      ['https', https],
      ['tcp', tcp],
    ] as const) {
      expect((await send('debug_traceCall', [call, 'latest', { tracer: JS_TRACER }])).error, name).toEqual({
        code: -32000,
        message: JS_OFF,
      })
      // Native tracers are served there.
      expect((await send('debug_traceCall', [call, 'latest', { tracer: 'callTracer' }])).result?.type, name).toBe(
        'CALL',
      )
    }
  }, 60_000)

  it('--rpc.jstracers serves them on every listener', async () => {
    const { https, tcp } = await start({ api: ['eth', 'debug'], wsApi: ['eth', 'debug'], jsTracers: true })
    expect((await https('debug_traceCall', [call, 'latest', { tracer: JS_TRACER }])).result).toBe('ran')
    expect((await tcp('debug_traceCall', [call, 'latest', { tracer: JS_TRACER }])).result).toBe('ran')
  }, 60_000)

  it('the command line warns about each address beyond loopback and says where JavaScript tracers are off', async () => {
    const tlsDir = TLS.pathname
    const run = await runCli(
      [
        ...['--upstream', anvil.url, '--hardfork', 'prague', '--http.port', '0', '--workers', '1'],
        ...['--https.addr', '0.0.0.0', '--https.port', '0', '--ws.api', 'eth,debug'],
        ...['--https.cert', `${tlsDir}localhost.crt`, '--https.key', `${tlsDir}localhost.key`],
        ...['--socket.url', 'tcp://0.0.0.0:0'],
      ],
      /WARNING: the debug namespace[^\n]*\n/,
    )
    try {
      expect(run.output).toContain('namespaces: eth, vendor, debug, trace, txpool, web3, net')
      // HTTPS is judged by its own address (--ws.api names what its WebSocket and the socket serve).
      expect(run.output).toMatch(/https: {6}https:\/\/0\.0\.0\.0:\d+ .*, namespaces eth, vendor\n/)
      expect(run.output).toMatch(
        /js tracers: served, [^\n]*; off on wss:\/\/0\.0\.0\.0:\d+, tcp:\/\/0\.0\.0\.0:\d+: beyond loopback \(--rpc\.jstracers serves them\)\n/,
      )
      // Once per address, with what its listeners serve together.
      expect(run.output.match(/WARNING: listening on 0\.0\.0\.0/g)).toHaveLength(1)
      expect(run.output.match(/WARNING: the debug namespace is enabled on 0\.0\.0\.0/g)).toHaveLength(1)
      expect(run.output).not.toMatch(/WARNING: listening on 127/)
    } finally {
      run.kill()
    }
  }, 60_000)
})
