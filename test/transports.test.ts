import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { connect as connectHttp2 } from 'node:http2'
import { request as httpsRequest } from 'node:https'
import { type Socket, connect, createServer as createNetServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { createSocketServer } from '../src/node/createSocketServer.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { DEV_ACCOUNT, rpcResult } from './src/rpc.js'
import { runCli } from './src/runCli.js'

// Every transport hands the same text to the same core: one batch — an answer, an argument error,
// a namespace not served, a notification — and a batch over the limit, answered byte for byte the
// same over HTTP, HTTPS/1.1, HTTP/2, WebSocket on its own port, WebSocket over TLS, IPC and TCP.

const TLS = new URL('./fixtures/tls/', import.meta.url)
const key = readFileSync(new URL('localhost.key', TLS))
const cert = readFileSync(new URL('localhost.crt', TLS))
const ipcPath = join(tmpdir(), `edgetrace-test-${process.pid}.ipc`)

let anvil: AnvilInstance
let edge: RunningEdgetrace

const BATCH = JSON.stringify([
  { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
  { jsonrpc: '2.0', id: 2, method: 'eth_getBalance', params: [DEV_ACCOUNT, '0x1'] },
  { jsonrpc: '2.0', id: 3, method: 'eth_getBalance', params: ['0x1234', 'latest'] },
  { jsonrpc: '2.0', id: 4, method: 'debug_traceCall', params: [{}, 'latest'] },
  { jsonrpc: '2.0', method: 'eth_chainId', params: [] },
])
const TOO_BIG = JSON.stringify(
  Array.from({ length: 6 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_chainId', params: [] })),
)

function postHttp(url: string, body: string, secure = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const send = secure ? httpsRequest : httpRequest
    const req = send(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json' }, ...(secure ? { ca: cert } : {}) },
      (res) => {
        let text = ''
        res.on('data', (d) => {
          text += d
        })
        res.on('end', () => resolve(text))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

function postHttp2(url: string, body: string): Promise<{ text: string; version: string }> {
  return new Promise((resolve, reject) => {
    const session = connectHttp2(url, { ca: cert })
    session.on('error', reject)
    const req = session.request({ ':method': 'POST', ':path': '/', 'content-type': 'application/json' })
    let text = ''
    req.on('data', (d) => {
      text += d
    })
    req.on('end', () => {
      session.close()
      resolve({ text, version: session.alpnProtocol ?? '' })
    })
    req.end(body)
  })
}

function overWebSocket(url: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { ca: cert })
    ws.on('open', () => ws.send(body))
    ws.on('message', (data) => {
      ws.close()
      resolve(data.toString())
    })
    ws.on('error', reject)
  })
}

/** Writes `pieces` to a socket (as they are, however split) and collects what comes back until `lines` newlines. */
function overSocket(target: { path: string } | { host: string; port: number }, pieces: (string | Buffer)[], lines = 1) {
  return new Promise<string>((resolve, reject) => {
    const socket: Socket = 'path' in target ? connect(target.path) : connect(target.port, target.host)
    let text = ''
    socket.on('data', (d) => {
      text += d
      if (text.split('\n').length > lines) {
        socket.destroy()
        resolve(text)
      }
    })
    socket.on('end', () => resolve(text))
    socket.on('error', reject)
    socket.on('connect', async () => {
      for (const piece of pieces) {
        socket.write(piece)
        await new Promise((r) => setTimeout(r, 10))
      }
    })
  })
}

beforeAll(async () => {
  anvil = await startAnvil()
  edge = await startEdgetrace({
    upstream: anvil.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth'],
    batchLimit: 5,
    ws: { port: 0 },
    https: { port: 0, key, cert },
    socketUrl: `unix://${ipcPath}`,
  })
}, 60_000)

afterAll(async () => {
  await edge?.close()
  await anvil?.stop()
})

describe('one core behind every transport', () => {
  it('answers the same batch byte for byte over HTTP, HTTPS/1.1, HTTP/2, WS, WSS and IPC', async () => {
    const plain = await postHttp(edge.url, BATCH)
    expect(JSON.parse(plain)).toHaveLength(4)
    expect(JSON.parse(plain)[2].error.code).toBe(-32602)
    expect(JSON.parse(plain)[3].error).toEqual({
      code: -32601,
      message:
        'the method debug_traceCall does not exist/is not available (the debug namespace is not enabled: add debug to --http.api)',
    })
    const h2 = await postHttp2(edge.httpsUrl!, BATCH)
    expect(h2.version).toBe('h2')
    const wssUrl = edge.httpsUrl!.replace(/^https/, 'wss')
    const answers = {
      https: await postHttp(edge.httpsUrl!, BATCH, true),
      http2: h2.text,
      ws: await overWebSocket(edge.wsListenerUrl!, BATCH),
      wss: await overWebSocket(wssUrl, BATCH),
      ipc: (await overSocket({ path: ipcPath }, [BATCH])).trimEnd(),
    }
    for (const [name, text] of Object.entries(answers)) expect(text, name).toBe(plain)
    const tooBig = await postHttp(edge.url, TOO_BIG)
    expect(JSON.parse(tooBig)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message: 'batch limit 5 exceeded (can increase by --rpc.batch.limit). Requested batch of size: 6',
      },
    })
    expect(await overWebSocket(edge.wsListenerUrl!, TOO_BIG)).toBe(tooBig)
    expect((await overSocket({ path: ipcPath }, [TOO_BIG])).trimEnd()).toBe(tooBig)
  })

  it('answers the same over a raw TCP socket', async () => {
    const tcp = await createSocketServer({ handler: edge.handler, url: 'tcp://127.0.0.1:0' })
    try {
      const m = tcp.url.match(/^tcp:\/\/(.+):(\d+)$/)!
      const target = { host: m[1]!, port: Number(m[2]) }
      expect((await overSocket(target, [BATCH])).trimEnd()).toBe(await postHttp(edge.url, BATCH))
    } finally {
      await tcp.close()
    }
  })

  it('WebSocket on its own port: the HTTP port refuses upgrades and says where to go', async () => {
    await expect(overWebSocket(edge.url.replace(/^http/, 'ws'), BATCH)).rejects.toThrow(/400/)
  })
})

describe('the IPC socket', () => {
  it('is owner-only, pushes subscriptions, and reads messages however they are split', async () => {
    expect(statSync(ipcPath).mode & 0o777).toBe(0o600)
    // One request cut in three pieces, then two requests in one write with no separator.
    const single = '{"jsonrpc":"2.0","id":7,"method":"eth_chainId","params":[]}'
    const split = await overSocket({ path: ipcPath }, [single.slice(0, 10), single.slice(10, 30), single.slice(30)])
    expect(JSON.parse(split)).toMatchObject({ id: 7, result: '0x7a69' })
    const two = await overSocket({ path: ipcPath }, [`${single}${single.replace('7', '8')}`], 2)
    expect(
      two
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([7, 8])

    const socket = connect(ipcPath)
    const lines: Record<string, unknown>[] = []
    let buffered = ''
    socket.on('data', (d) => {
      buffered += d
      const parts = buffered.split('\n')
      buffered = parts.pop()!
      for (const p of parts) lines.push(JSON.parse(p))
    })
    await new Promise((r) => socket.once('connect', r))
    socket.write('{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]}')
    const until = async (test: () => boolean) => {
      const end = Date.now() + 5000
      while (!test() && Date.now() < end) await new Promise((r) => setTimeout(r, 20))
    }
    await until(() => lines.length > 0)
    const id = lines[0]!.result
    await rpcResult(anvil.url, 'evm_mine', [])
    await until(() => lines.some((l) => l.method === 'eth_subscription'))
    const note = lines.find((l) => l.method === 'eth_subscription') as {
      params: { subscription: string; result: { number: string } }
    }
    expect(note.params.subscription).toBe(id)
    expect(note.params.result.number).toBe(await rpcResult(anvil.url, 'eth_blockNumber', []))
    socket.destroy()
  })

  it('answers garbage and oversized messages with an error and closes that connection only; a half-closed client still gets its answer', async () => {
    const garbage = await overSocket({ path: ipcPath }, ['hello\n'])
    expect(JSON.parse(garbage)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } })
    const huge = `{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":["${'a'.repeat(6 * 1024 * 1024)}"]}`
    const tooLarge = await overSocket({ path: ipcPath }, [huge])
    expect(JSON.parse(tooLarge).error.code).toBe(-32600)
    // Half-closed: the request, then the client's end; the answer still comes.
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(ipcPath)
      let text = ''
      socket.on('data', (d) => {
        text += d
      })
      socket.on('end', () => resolve(text))
      socket.on('connect', () => socket.end('{"jsonrpc":"2.0","id":9,"method":"eth_chainId","params":[]}'))
    })
    expect(JSON.parse(answer)).toMatchObject({ id: 9, result: '0x7a69' })
    expect(
      JSON.parse(await postHttp(edge.url, '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}')),
    ).toMatchObject({ result: '0x7a69' })
  })

  it('replaces a socket file left by a dead process and refuses one a live process holds', async () => {
    const path = join(tmpdir(), `edgetrace-stale-${process.pid}.ipc`)
    // A socket file whose server is gone: made by a server closed without removing it.
    const old = createNetServer()
    await new Promise<void>((r) => old.listen(path, () => r()))
    ;(old as unknown as { _handle: { close(): void } })._handle.close()
    const fresh = await createSocketServer({ handler: edge.handler, url: `unix://${path}` })
    try {
      expect(
        JSON.parse(await overSocket({ path }, ['{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'])),
      ).toMatchObject({ result: '0x7a69' })
      await expect(createSocketServer({ handler: edge.handler, url: `unix://${path}` })).rejects.toThrow(
        /in use by a running process/,
      )
    } finally {
      await fresh.close()
    }
    writeFileSync(`${path}.txt`, 'not a socket')
    await expect(createSocketServer({ handler: edge.handler, url: `unix://${path}.txt` })).rejects.toThrow(
      /not a socket/,
    )
  })
})

describe('HTTPS at start', () => {
  it('refuses a key that does not match the certificate, clearly', async () => {
    const other = readFileSync(new URL('other.key', TLS))
    await expect(
      startEdgetrace({ upstream: anvil.url, port: 0, hardfork: 'prague', https: { port: 0, key: other, cert } }),
    ).rejects.toThrow('--https.key does not match --https.cert')
  })
})

describe('the command line', () => {
  it('starts HTTPS, WebSocket on its own port and an IPC socket from the reference daemon’s flags', async () => {
    const path = join(tmpdir(), `edgetrace-cli-${process.pid}.ipc`)
    const tlsDir = new URL('./fixtures/tls/', import.meta.url).pathname
    const run = await runCli(
      [
        ...['--upstream', anvil.url, '--hardfork', 'prague', '--http.port', '0', '--ws.port', '0'],
        ...['--ws.api', 'eth,net', '--https.enabled', '--https.port', '0'],
        ...['--https.cert', `${tlsDir}localhost.crt`, '--https.key', `${tlsDir}localhost.key`],
        ...['--socket.url', `unix://${path}`],
      ],
      /\n(open|JSON-RPC at) http/,
    )
    try {
      expect(run.output).toMatch(/https: {6}https:\/\/127\.0\.0\.1:\d+ {2}\(HTTP\/2 and HTTP\/1\.1; WebSocket: wss:/)
      expect(run.output).toMatch(
        /listening: {2}http:\/\/127\.0\.0\.1:\d+ {2}\(WebSocket: ws:\/\/127\.0\.0\.1:\d+, namespaces eth, net\)/,
      )
      expect(run.output).toContain(`socket:     unix://${path}`)
      // IPC gets --ws.api's namespaces: net is served there.
      const answer = await overSocket({ path }, ['{"jsonrpc":"2.0","id":1,"method":"net_version","params":[]}'])
      expect(JSON.parse(answer)).toMatchObject({ result: '31337' })
    } finally {
      run.kill()
    }
  })

  it('says what is missing: a certificate file that is not there, --https.enabled without files', async () => {
    const missing = await runCli(
      [
        '--upstream',
        anvil.url,
        '--http.port',
        '0',
        '--https.enabled',
        '--https.cert',
        '/nope.crt',
        '--https.key',
        '/nope.key',
      ],
      /never/,
    )
    expect(missing.code).toBe(1)
    expect(missing.output).toMatch(/edgetrace: --https.cert \/nope.crt: ENOENT/)
    const bare = await runCli(['--upstream', anvil.url, '--https.enabled'], /never/)
    expect(bare.code).toBe(1)
    expect(bare.output).toContain('--https.enabled needs --https.cert FILE and --https.key FILE')
  })
})
