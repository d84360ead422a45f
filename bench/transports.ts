// Part of `npm run bench`: the transports. (1) Subscription fan-out: 1,000 WebSocket clients, each
// subscribed to newHeads and to logs, on an edgetrace CLI process in front of anvil over WebSocket
// (new heads announced, not polled); for 20 blocks (each with one log), the delay from anvil having
// mined the block to each client holding both notifications — p50 and p99 over every client and
// block — and the server process's resident memory before and with the clients. (2) Small calls
// (eth_chainId) per transport, 16 in flight on one connection: calls per second.
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { Agent, request as httpRequest } from 'node:http'
import { connect as connectHttp2 } from 'node:http2'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { WebSocket } from 'ws'
import { startAnvil } from '../src/node/devnet/startAnvil.js'
import { DEV_ACCOUNT, rpcResult } from '../test/src/rpc.js'

const ROOT = resolve(import.meta.dirname, '..')
const CLIENTS = 1_000
const BLOCKS = 20
const TOPIC = `0x${'ab'.repeat(32)}`
const LOG_INIT = `0x602a600052${`7f${TOPIC.slice(2)}`}60206000a100`
const TLS = join(ROOT, 'test/fixtures/tls')

const rssOf = (pid: number) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)![1]) * 1024
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!

function startCli(args: string[]): Promise<{ child: ChildProcess; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/node/cli.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  return new Promise((done, fail) => {
    const on = (d: Buffer) => {
      output += d.toString()
      if (/\nJSON-RPC at|\nopen http/.test(output)) done({ child, output })
    }
    child.stdout!.on('data', on)
    child.stderr!.on('data', on)
    child.on('exit', () => fail(new Error(`the CLI exited: ${output}`)))
  })
}

async function fanOut(anvilUrl: string) {
  const { child, output } = await startCli([
    ...['--upstream', anvilUrl.replace(/^http/, 'ws'), '--hardfork', 'prague', '--http.port', '0'],
    ...['--http.api', 'eth', '--http.explorer', 'off'],
  ])
  const url = output.match(/listening: {2}(http:\/\/\S+)/)![1]!
  const idle = rssOf(child.pid!)
  const received = new Map<string, number[]>() // block hash → when each client had both
  const clients: WebSocket[] = []
  for (let i = 0; i < CLIENTS; i++) {
    const ws = new WebSocket(url.replace(/^http/, 'ws'))
    await new Promise((r) => ws.once('open', r))
    const got = new Map<string, number>() // block hash → notifications of it so far
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as {
        method?: string
        params?: { result: { hash?: string; blockHash?: string } }
      }
      if (m.method !== 'eth_subscription') return
      const hash = m.params!.result.hash ?? m.params!.result.blockHash!
      const n = (got.get(hash) ?? 0) + 1
      got.set(hash, n)
      if (n === 2) {
        const list = received.get(hash) ?? []
        list.push(performance.now())
        received.set(hash, list)
      }
    })
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }))
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_subscribe', params: ['logs', { topics: [TOPIC] }] }))
    clients.push(ws)
  }
  await new Promise((r) => setTimeout(r, 1000))
  const subscribed = rssOf(child.pid!)
  const delays: number[] = []
  let peak = subscribed
  for (let b = 0; b < BLOCKS; b++) {
    await rpcResult(anvilUrl, 'eth_sendTransaction', [{ from: DEV_ACCOUNT, data: LOG_INIT, gas: '0x30000' }])
    await rpcResult(anvilUrl, 'evm_mine', [])
    const mined = performance.now()
    const head = await rpcResult(anvilUrl, 'eth_getBlockByNumber', ['latest', false])
    const until = Date.now() + 20_000
    while ((received.get(head.hash)?.length ?? 0) < CLIENTS && Date.now() < until)
      await new Promise((r) => setTimeout(r, 5))
    peak = Math.max(peak, rssOf(child.pid!))
    for (const at of received.get(head.hash) ?? []) delays.push(at - mined)
  }
  for (const ws of clients) ws.terminate()
  child.kill('SIGTERM')
  return { idle, subscribed, peak, delays, complete: delays.length === CLIENTS * BLOCKS }
}

/** `total` calls of eth_chainId, `inFlight` at a time, through `send`; calls per second. */
async function rate(send: (body: string) => Promise<string>, total = 4000, inFlight = 16) {
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < total) {
        const id = next++
        const out = await send(JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_chainId', params: [] }))
        if (!out.includes('"result"')) throw new Error(`bad answer: ${out}`)
      }
    }),
  )
  return (total / (performance.now() - started)) * 1000
}

/** A pipelined line-delimited client (WebSocket, IPC, TCP): answers matched by id. */
function pipelined(write: (text: string) => void, onText: (listener: (text: string) => void) => void) {
  const waiting = new Map<number, (text: string) => void>()
  onText((text) => {
    const id = (JSON.parse(text) as { id: number }).id
    waiting.get(id)?.(text)
    waiting.delete(id)
  })
  return (body: string) =>
    new Promise<string>((resolve) => {
      waiting.set((JSON.parse(body) as { id: number }).id, resolve)
      write(body)
    })
}

async function perTransport(anvilUrl: string) {
  const ipc = join(tmpdir(), `edgetrace-bench-${process.pid}.ipc`)
  const { child, output } = await startCli([
    ...['--upstream', anvilUrl, '--hardfork', 'prague', '--http.port', '0', '--http.api', 'eth'],
    ...['--http.explorer', 'off', '--https.enabled', '--https.port', '0'],
    ...['--https.cert', join(TLS, 'localhost.crt'), '--https.key', join(TLS, 'localhost.key')],
    ...['--socket.url', `unix://${ipc}`],
  ])
  const url = output.match(/listening: {2}(http:\/\/\S+)/)![1]!
  const httpsUrl = output.match(/https: {6}(https:\/\/\S+)/)![1]!
  const rows: [string, number][] = []
  const agent = new Agent({ keepAlive: true, maxSockets: 16 })
  rows.push([
    'HTTP/1.1 (keep-alive, 16 sockets)',
    await rate(
      (body) =>
        new Promise((done, fail) => {
          const req = httpRequest(
            url,
            { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
            (res) => {
              let text = ''
              res.on('data', (d) => {
                text += d
              })
              res.on('end', () => done(text))
            },
          )
          req.on('error', fail)
          req.end(body)
        }),
    ),
  ])
  const session = connectHttp2(httpsUrl, { ca: readFileSync(join(TLS, 'localhost.crt')) })
  rows.push([
    'HTTP/2 over TLS (one connection)',
    await rate(
      (body) =>
        new Promise((done) => {
          const req = session.request({ ':method': 'POST', ':path': '/', 'content-type': 'application/json' })
          let text = ''
          req.on('data', (d) => {
            text += d
          })
          req.on('end', () => done(text))
          req.end(body)
        }),
    ),
  ])
  session.close()
  const ws = new WebSocket(url.replace(/^http/, 'ws'))
  await new Promise((r) => ws.once('open', r))
  rows.push([
    'WebSocket (one connection)',
    await rate(
      pipelined(
        (t) => ws.send(t),
        (l) => ws.on('message', (d) => l(d.toString())),
      ),
    ),
  ])
  ws.close()
  const socket = connect(ipc)
  await new Promise((r) => socket.once('connect', r))
  let buffered = ''
  rows.push([
    'IPC (one connection)',
    await rate(
      pipelined(
        (t) => socket.write(t),
        (l) =>
          socket.on('data', (d) => {
            buffered += d
            const lines = buffered.split('\n')
            buffered = lines.pop()!
            for (const line of lines) l(line)
          }),
      ),
    ),
  ])
  socket.destroy()
  child.kill('SIGTERM')
  return rows
}

async function main() {
  const anvil = await startAnvil({ args: ['--no-mining'] })
  await rpcResult(anvil.url, 'evm_mine', [])
  const fan = await fanOut(anvil.url)
  console.log(
    `\nedgetrace transports — subscription fan-out: ${CLIENTS} WebSocket clients × (newHeads + logs), ${BLOCKS} blocks\n`,
  )
  console.log(
    '| delivery after mining, p50 | p99 | notifications delivered | server RSS idle | with the clients subscribed | peak while pushing |',
  )
  console.log('|---:|---:|---|---:|---:|---:|')
  console.log(
    `| ${pct(fan.delays, 0.5).toFixed(0)} ms | ${pct(fan.delays, 0.99).toFixed(0)} ms | ${fan.delays.length * 2} of ${CLIENTS * BLOCKS * 2}${fan.complete ? '' : ' (some missing)'} | ${mb(fan.idle)} | ${mb(fan.subscribed)} | ${mb(fan.peak)} |`,
  )
  const rows = await perTransport(anvil.url)
  console.log('\nedgetrace transports — eth_chainId, 16 in flight, 4,000 calls\n')
  console.log('| transport | calls/s |')
  console.log('|---|---:|')
  for (const [name, r] of rows) console.log(`| ${name} | ${Math.round(r)} |`)
  await anvil.stop()
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
