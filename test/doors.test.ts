import { spawn } from 'node:child_process'
import { request } from 'node:http'
import { connect } from 'node:net'
import { JsonRpcProvider } from 'ethers'
import { createPublicClient, http as viemHttp, webSocket } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { originAllowed } from '../src/node/originAllowed.js'
import { parseCliArgs } from '../src/node/parseCliArgs.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { type Proxy, createProxy } from './src/createProxy.js'
import { CLI_ARGS } from './src/cliCommand.js'

// The server's three doors, as geth keeps them: a WebSocket upgrade from a foreign browser origin,
// a POST that is not JSON (a "simple" cross-origin request, sent without a CORS preflight), and a
// Host header naming a hostname that is not ours (DNS rebinding). Every edgetrace here reads through
// the counting proxy, so "nothing was executed" is the upstream not seeing the call.

const CALL = '{"jsonrpc":"2.0","id":1,"method":"eth_gasPrice","params":[]}'

let anvil: AnvilInstance
let proxy: Proxy
/** Default flags: same origin only, vhosts `localhost`. */
let plain: RunningEdgetrace
/** --ws.origins https://listed.example --http.corsdomain https://cors.example --http.vhosts rpc.example */
let listed: RunningEdgetrace
/** --ws.origins '*' --http.vhosts '*' */
let open: RunningEdgetrace

beforeAll(async () => {
  anvil = await startAnvil()
  proxy = await createProxy(anvil.url)
  const base = { upstream: proxy.url, port: 0, hardfork: 'prague' } as const
  plain = await startEdgetrace(base)
  listed = await startEdgetrace({
    ...base,
    wsOrigins: ['https://listed.example'],
    corsDomains: ['https://cors.example'],
    vhosts: ['rpc.example'],
  })
  open = await startEdgetrace({ ...base, wsOrigins: ['*'], vhosts: ['*'] })
})
afterAll(async () => {
  await Promise.all([plain?.close(), listed?.close(), open?.close()])
  await proxy?.stop()
  await anvil?.stop()
})

const gasPriceCalls = () => proxy.calls.get('eth_gasPrice') ?? 0
const portOf = (edge: RunningEdgetrace) => new URL(edge.url).port

/** A raw HTTP request (node:http: fetch may not set Host, and always adds a content type to a string body). */
function http(
  edge: RunningEdgetrace,
  { method = 'POST', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; text: string }> {
  const url = new URL(edge.url)
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path: '/', headers, timeout: 20_000 }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode!, text }))
    })
    req.on('timeout', () => req.destroy(new Error('timed out')))
    req.on('error', reject)
    req.end(body)
  })
}

/** A WebSocket client (the ws package) that sends one call: 101 and the answer, or the refusal. */
function overWs(
  edge: RunningEdgetrace,
  headers: { origin?: string; host?: string } = {},
): Promise<{ status: number; reply?: { result?: unknown }; text?: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(edge.wsUrl, {
      ...(headers.origin !== undefined ? { origin: headers.origin } : {}),
      ...(headers.host !== undefined ? { headers: { host: headers.host } } : {}),
      handshakeTimeout: 20_000,
    })
    const timer = setTimeout(() => {
      ws.terminate()
      reject(new Error('no answer over WebSocket'))
    }, 20_000)
    ws.on('unexpected-response', (_req, res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => (text += d))
      res.on('end', () => {
        clearTimeout(timer)
        ws.terminate()
        resolve({ status: res.statusCode!, text })
      })
    })
    ws.on('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    ws.on('open', () => ws.send(CALL))
    ws.on('message', (data) => {
      clearTimeout(timer)
      ws.close()
      resolve({ status: 101, reply: JSON.parse(data.toString()) as { result?: unknown } })
    })
  })
}

/**
 * The upgrade request and a masked text frame carrying a call, in one write: a server that let the
 * upgrade through would run the call even before its client saw the 101. Returns all it received.
 */
function rawUpgradeWithCall(edge: RunningEdgetrace, headers: Record<string, string>): Promise<string> {
  const url = new URL(edge.url)
  const payload = Buffer.from(CALL)
  const mask = Buffer.from([0x12, 0x34, 0x56, 0x78])
  const frame = Buffer.concat([
    Buffer.from([0x81, 0x80 | payload.length]),
    mask,
    payload.map((b, i) => b ^ mask[i % 4]!),
  ])
  const head = [
    'GET / HTTP/1.1',
    `Host: ${url.host}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    'Sec-WebSocket-Version: 13',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n')
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname)
    let received = ''
    const done = () => {
      clearTimeout(timer)
      socket.destroy()
      resolve(received)
    }
    // An accepted upgrade stays open: it is read until the answer arrives.
    const timer = setTimeout(done, 10_000)
    socket.on('connect', () => socket.write(Buffer.concat([Buffer.from(head), frame])))
    socket.on('data', (d) => {
      received += d.toString('latin1')
      if (received.includes('"result"')) done()
    })
    socket.on('close', done)
    socket.on('error', reject)
  })
}

describe('WebSocket origins (--ws.origins)', () => {
  it('refuses a foreign origin with 403 and runs nothing, even a call sent along with the upgrade', async () => {
    const before = gasPriceCalls()
    const refused = await rawUpgradeWithCall(plain, { Origin: 'https://evil.example' })
    expect(refused).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/)
    expect(refused).toContain('origin not allowed (see --ws.origins)')
    expect(refused).not.toContain('"result"')
    expect(gasPriceCalls()).toBe(before)
    // The same bytes without the Origin header are upgraded and the call runs: the probe can see it.
    const accepted = await rawUpgradeWithCall(plain, {})
    expect(accepted).toMatch(/^HTTP\/1\.1 101 /)
    expect(accepted).toContain('"result"')
    expect(gasPriceCalls()).toBe(before + 1)
  })

  it('refuses a foreign origin to a ws client too, and keeps serving', async () => {
    expect(await overWs(plain, { origin: 'https://evil.example' })).toEqual({
      status: 403,
      text: 'origin not allowed (see --ws.origins)\n',
    })
    expect(await overWs(plain, { origin: `http://localhost:${Number(portOf(plain)) + 1}` })).toMatchObject({
      status: 403,
    })
    expect(await overWs(plain, { origin: 'null' })).toMatchObject({ status: 403 })
    expect((await overWs(plain)).reply?.result).toMatch(/^0x/)
  })

  it("accepts no Origin (non-browser clients), and the server's own origin in any case", async () => {
    const before = gasPriceCalls()
    expect((await overWs(plain)).reply?.result).toMatch(/^0x/)
    expect((await overWs(plain, { origin: plain.url })).reply?.result).toMatch(/^0x/)
    expect((await overWs(plain, { origin: `HTTP://127.0.0.1:${portOf(plain)}` })).reply?.result).toMatch(/^0x/)
    expect(
      (await overWs(plain, { origin: `http://localhost:${portOf(plain)}`, host: `localhost:${portOf(plain)}` })).reply
        ?.result,
    ).toMatch(/^0x/)
    expect(gasPriceCalls()).toBe(before + 4)
  })

  it('does not take a DNS-rebinding page for the same origin (its Host is not an allowed vhost)', async () => {
    const port = portOf(plain)
    expect(await overWs(plain, { origin: `http://evil.example:${port}`, host: `evil.example:${port}` })).toMatchObject({
      status: 403,
    })
    // As in geth, vhosts are not applied to WebSocket otherwise: a client without Origin is let in.
    expect((await overWs(plain, { host: `evil.example:${port}` })).reply?.result).toMatch(/^0x/)
  })

  it('accepts origins listed in --ws.origins or --http.corsdomain, case-insensitively, and no others', async () => {
    expect((await overWs(listed, { origin: 'https://listed.example' })).reply?.result).toMatch(/^0x/)
    expect((await overWs(listed, { origin: 'HTTPS://Listed.Example:8443' })).reply?.result).toMatch(/^0x/)
    expect((await overWs(listed, { origin: 'https://cors.example' })).reply?.result).toMatch(/^0x/)
    expect(await overWs(listed, { origin: 'http://listed.example' })).toMatchObject({ status: 403 })
    expect(await overWs(listed, { origin: 'https://evil.example' })).toMatchObject({ status: 403 })
    expect(await overWs(listed, { origin: 'https://listed.example.evil.example' })).toMatchObject({ status: 403 })
  })

  it('accepts any origin with *', async () => {
    expect((await overWs(open, { origin: 'https://evil.example' })).reply?.result).toMatch(/^0x/)
    expect((await overWs(open, { origin: 'null' })).reply?.result).toMatch(/^0x/)
  })

  it('matches rules as geth does: a rule without port matches any port, one without scheme any scheme', () => {
    expect(originAllowed('http://localhost:3000', ['http://localhost'])).toBe(true)
    expect(originAllowed('http://localhost:3000', ['http://localhost:3001'])).toBe(false)
    expect(originAllowed('https://app.example', ['app.example'])).toBe(true)
    expect(originAllowed('https://app.example:8443', ['app.example:8443'])).toBe(true)
    expect(originAllowed('https://app.example', ['app.example:8443'])).toBe(false)
    expect(originAllowed('http://[::1]:3000', ['http://[::1]'])).toBe(true)
    expect(originAllowed('https://app.example', [])).toBe(false)
  })
})

describe('POST content type', () => {
  it("answers a text/plain POST 415 with geth's text and runs nothing", async () => {
    const before = gasPriceCalls()
    const res = await http(plain, {
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'https://evil.example' },
      body: CALL,
    })
    expect(res).toEqual({ status: 415, text: 'invalid content type, only application/json is supported\n' })
    expect(
      (await http(plain, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: CALL })).status,
    ).toBe(415)
    expect(
      (await http(plain, { headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: CALL })).status,
    ).toBe(415)
    expect((await http(plain, { headers: { 'content-type': 'application/json; charset' }, body: CALL })).status).toBe(
      415,
    )
    expect(gasPriceCalls()).toBe(before)
  })

  it('answers a POST without Content-Type 415, as geth does', async () => {
    const before = gasPriceCalls()
    expect(await http(plain, { body: CALL })).toMatchObject({ status: 415 })
    expect(gasPriceCalls()).toBe(before)
  })

  it("accepts application/json with parameters, and geth's other JSON-RPC types", async () => {
    const before = gasPriceCalls()
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON;charset="UTF-8"',
      'application/json-rpc',
      'application/jsonrequest',
    ]) {
      const res = await http(plain, { headers: { 'content-type': type }, body: CALL })
      expect(res.status, type).toBe(200)
      expect(JSON.parse(res.text).result, type).toMatch(/^0x/)
    }
    expect(gasPriceCalls()).toBe(before + 5)
  })

  it('serves the usual clients, which send application/json: viem (HTTP and WebSocket), ethers', async () => {
    const chainId = anvil.chainId
    expect(await createPublicClient({ transport: viemHttp(plain.url) }).getChainId()).toBe(chainId)
    const overSocket = createPublicClient({ transport: webSocket(plain.wsUrl) })
    expect(await overSocket.getChainId()).toBe(chainId)
    const ethers = new JsonRpcProvider(plain.url, undefined, { staticNetwork: true })
    expect(Number(await ethers.send('eth_chainId', []))).toBe(chainId)
    ethers.destroy()
  })

  it('still answers CORS preflights and health checks, which carry no body', async () => {
    expect(
      (
        await http(listed, {
          method: 'OPTIONS',
          headers: { origin: 'https://cors.example', 'access-control-request-method': 'POST' },
        })
      ).status,
    ).toBe(204)
    // GET / without the explorer is the health check (on loopback, the full report).
    const health = await http(plain, { method: 'GET' })
    expect(health.status).toBe(200)
    expect(JSON.parse(health.text)).toMatchObject({ status: 'ok', live: true, ready: true })
  })
})

describe('Host header (--http.vhosts)', () => {
  const json = { 'content-type': 'application/json' }

  it('refuses a hostname not listed with 403 "invalid host specified", health checks included', async () => {
    const port = portOf(plain)
    const before = gasPriceCalls()
    expect(await http(plain, { headers: { ...json, host: `evil.example:${port}` }, body: CALL })).toEqual({
      status: 403,
      text: 'invalid host specified\n',
    })
    expect(await http(plain, { method: 'GET', headers: { host: `evil.example:${port}` } })).toMatchObject({
      status: 403,
    })
    expect(await http(listed, { headers: { ...json, host: `localhost:${portOf(listed)}` }, body: CALL })).toMatchObject(
      { status: 403 },
    )
    expect(gasPriceCalls()).toBe(before)
  })

  it('accepts localhost by default, IP addresses always, listed hostnames, and any with *', async () => {
    const ok = async (edge: RunningEdgetrace, host: string) => {
      const res = await http(edge, { headers: { ...json, host }, body: CALL })
      expect(res.status, host).toBe(200)
      expect(JSON.parse(res.text).result, host).toMatch(/^0x/)
    }
    const port = portOf(plain)
    await ok(plain, `localhost:${port}`)
    await ok(plain, 'localhost')
    await ok(plain, `LocalHost:${port}`)
    await ok(plain, `127.0.0.1:${port}`)
    await ok(plain, `[::1]:${port}`)
    await ok(plain, `10.1.2.3:${port}`)
    await ok(listed, `rpc.example:${portOf(listed)}`)
    await ok(listed, `127.0.0.1:${portOf(listed)}`)
    await ok(open, `evil.example:${portOf(open)}`)
  })

  it('accepts a request without Host (HTTP/1.0; browsers always send one)', async () => {
    const url = new URL(plain.url)
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname)
      let received = ''
      const timer = setTimeout(() => socket.destroy(new Error('timed out')), 20_000)
      socket.on('connect', () =>
        socket.write(
          `POST / HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: ${CALL.length}\r\n\r\n${CALL}`,
        ),
      )
      socket.on('data', (d) => (received += d.toString()))
      socket.on('close', () => {
        clearTimeout(timer)
        resolve(received)
      })
      socket.on('error', reject)
    })
    expect(text).toMatch(/^HTTP\/1\.1 200 /)
    expect(text).toContain('"result":"0x')
  })
})

describe('CLI flags', () => {
  it('parses --ws.origins and --http.vhosts, defaulting to none and localhost', () => {
    expect(parseCliArgs([])).toMatchObject({ wsOrigins: [], vhosts: ['localhost'] })
    expect(parseCliArgs(['--ws.origins', 'https://a.example, http://localhost:3000', '--http.vhosts=*'])).toMatchObject(
      {
        wsOrigins: ['https://a.example', 'http://localhost:3000'],
        vhosts: ['*'],
      },
    )
  })

  it('passes them from the command line to the server', async () => {
    const child = spawn(
      process.execPath,
      [
        ...CLI_ARGS,
        '--upstream',
        anvil.url,
        '--hardfork',
        'prague',
        '--http.port',
        '0',
        '--ws.origins',
        'https://listed.example',
        '--http.vhosts',
        'rpc.example',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = ''
        const timer = setTimeout(() => reject(new Error(`no banner: ${output}`)), 50_000)
        const onData = (d: Buffer) => {
          output += d.toString()
          const m = /listening: +(http:\/\/\S+)/.exec(output)
          if (m) {
            clearTimeout(timer)
            resolve(m[1]!)
          }
        }
        child.stdout.on('data', onData)
        child.stderr.on('data', onData)
        child.on('exit', () => reject(new Error(`exited: ${output}`)))
      })
      const edge = { url, wsUrl: url.replace(/^http/, 'ws') } as RunningEdgetrace
      const port = portOf(edge)
      expect((await overWs(edge, { origin: 'https://listed.example' })).reply?.result).toMatch(/^0x/)
      expect(await overWs(edge, { origin: 'https://evil.example' })).toMatchObject({ status: 403 })
      expect(
        (await http(edge, { headers: { 'content-type': 'application/json', host: `rpc.example:${port}` }, body: CALL }))
          .status,
      ).toBe(200)
      expect(
        (await http(edge, { headers: { 'content-type': 'application/json', host: `localhost:${port}` }, body: CALL }))
          .status,
      ).toBe(403)
    } finally {
      child.kill('SIGTERM')
    }
  })
})
