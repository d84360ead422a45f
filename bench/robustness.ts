// npm run bench (last), or alone: tsx bench/robustness.ts [--window MS] [--hang MS] [--bounds] [--big-gas N]
// How edgetrace holds up: (1) eth_chainId latency seen by a client probing every 20 ms while 0, 1, 10
// and 50 heavy requests run (an eth_call whose state override installs an endless loop, and the same
// loop traced by debug_traceCall with callTracer: JUMPDEST PUSH1 0 JUMP, called with 2^48 gas, it
// ends only at --rpc.evmtimeout, 5 s here, gas cap off); (2) the time to recover after the upstream hangs: a loopback proxy holds every request for a
// few seconds (those requests are never answered), then serves again; measured from that moment until
// a new cold call answers correctly. The server runs as its own process (the CLI), so a stalled event
// loop in it cannot stall the measuring client. Real sockets on loopback only.
import { type ChildProcess, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { connect as netConnect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { WebSocket } from 'ws'
import { fileURLToPath } from 'node:url'
import { startAnvil } from '../src/node/devnet/startAnvil.js'
import { createProxy } from '../test/src/createProxy.js'
import { deploy, rpcResult, storageContractInitCode } from '../test/src/rpc.js'
import { timedRpc } from '../test/src/timedRpc.js'

function numberFlag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`)
  return at > 0 ? Number(process.argv[at + 1]) : fallback
}

const WINDOW_MS = numberFlag('window', 6000)
const HANG_MS = numberFlag('hang', 5000)
const PROBE_EVERY_MS = 20
const PROBE_TIMEOUT_MS = 10_000
const HEAVY_TIMEOUT_MS = 30_000
const RECOVERY_LIMIT_MS = 120_000
const LOOP_CODE = '0x5b600056' // JUMPDEST PUSH1 0 JUMP
const LOOP_ADDRESS = `0x${'10'.repeat(20)}`
const CLI = fileURLToPath(new URL('../src/node/cli.ts', import.meta.url))
const ROOT = fileURLToPath(new URL('..', import.meta.url))

type Server = { url: string; process: ChildProcess; logLines: number; kill(): Promise<void> }

const children = new Set<ChildProcess>()
// A stalled server does not run its SIGTERM handler: SIGKILL whatever is left when the bench ends.
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL')
})

/** The CLI in its own process, on a free port. */
async function startServer(upstream: string, args: string[] = []): Promise<Server> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', CLI, '--upstream', upstream, '--http.port', '0', '--hardfork', 'prague', ...args],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  children.add(child)
  const server: Server = {
    url: '',
    process: child,
    logLines: 0,
    kill: () =>
      new Promise<void>((resolve) => {
        children.delete(child)
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGKILL')
      }),
  }
  child.stderr!.on('data', (chunk: Buffer) => (server.logLines += chunk.toString().split('\n').length - 1))
  let out = ''
  server.url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`edgetrace did not start:\n${out}`)), 30_000)
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /listening:\s+(http:\/\/\S+)/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
    child.once('exit', (code) => reject(new Error(`edgetrace exited (${code}):\n${out}`)))
  })
  child.stdout!.resume()
  return server
}

const envelope = (id: number, method: string, params: unknown[]) => ({ jsonrpc: '2.0', id, method, params })

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

/** A latency for the table: ms, or "> limit" when the probe got no answer in time. */
const fmt = (ms: number, limit: number) => (ms >= limit ? `> ${limit}` : String(Math.round(ms)))

/** What one heavy request is: the endless loop untraced (eth_call) or traced (debug_traceCall, callTracer). */
type HeavyKind = 'eth_call' | 'debug_traceCall callTracer'

const heavyRequest = (kind: HeavyKind, id: number, block: string) =>
  kind === 'eth_call'
    ? envelope(id, 'eth_call', [
        { to: LOOP_ADDRESS, gas: '0x1000000000000' },
        block,
        { [LOOP_ADDRESS]: { code: LOOP_CODE } },
      ])
    : envelope(id, 'debug_traceCall', [
        { to: LOOP_ADDRESS, gas: '0x1000000000000' },
        block,
        { tracer: 'callTracer', stateOverrides: { [LOOP_ADDRESS]: { code: LOOP_CODE } }, timeout: '1m' },
      ])

type LoadRow = {
  kind: HeavyKind
  heavy: number
  probes: number
  answered: number
  p50: string
  p99: string
  max: string
  heavyDone: number
  heavyOutcome: string
}

async function measureUnderLoad(anvilUrl: string, block: string, heavy: number, kind: HeavyKind): Promise<LoadRow> {
  const server = await startServer(anvilUrl, ['--rpc.evmtimeout', '5s', '--rpc.gascap', '0', '--http.api', 'eth,debug'])
  try {
    // Warm: the block's header and the state the heavy call reads (a STOP at the same address).
    const warm = await timedRpc(
      server.url,
      envelope(1, 'eth_call', [{ to: LOOP_ADDRESS }, block, { [LOOP_ADDRESS]: { code: '0x00' } }]),
      30_000,
    )
    if (warm.kind !== 'answer' || (warm.json as { result?: string })?.result !== '0x')
      throw new Error(`warm-up call failed: ${JSON.stringify(warm)}`)
    let stopped = false
    const heavyResults: { ms: number; outcome: string }[] = []
    const heavyLoops = Array.from({ length: heavy }, async (_, i) => {
      while (!stopped) {
        const answer = await timedRpc(server.url, heavyRequest(kind, 1000 + i, block), HEAVY_TIMEOUT_MS)
        if (stopped && answer.kind !== 'answer') break
        const json = answer.kind === 'answer' ? (answer.json as { error?: { message?: string } }) : undefined
        heavyResults.push({
          ms: answer.ms,
          outcome: answer.kind === 'answer' ? (json?.error?.message ?? 'a result') : answer.kind,
        })
      }
    })
    // Let the heavy calls get going before probing.
    await new Promise((resolve) => setTimeout(resolve, heavy > 0 ? 500 : 0))
    const probes: Promise<number>[] = []
    const started = performance.now()
    let id = 0
    while (performance.now() - started < WINDOW_MS) {
      probes.push(
        timedRpc(server.url, envelope(++id, 'eth_chainId', []), PROBE_TIMEOUT_MS).then((a) =>
          a.kind === 'answer' && (a.json as { result?: string })?.result === '0x7a69' ? a.ms : PROBE_TIMEOUT_MS,
        ),
      )
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS))
    }
    const latencies = (await Promise.all(probes)).sort((a, b) => a - b)
    stopped = true
    // The heavy calls in flight end with the server (killed below).
    await server.kill()
    await Promise.all(heavyLoops)
    const outcomes = new Map<string, number>()
    for (const r of heavyResults) outcomes.set(r.outcome, (outcomes.get(r.outcome) ?? 0) + 1)
    const durations = heavyResults.map((r) => r.ms).sort((a, b) => a - b)
    return {
      kind,
      heavy,
      probes: latencies.length,
      answered: latencies.filter((ms) => ms < PROBE_TIMEOUT_MS).length,
      p50: fmt(percentile(latencies, 50), PROBE_TIMEOUT_MS),
      p99: fmt(percentile(latencies, 99), PROBE_TIMEOUT_MS),
      max: fmt(latencies.at(-1)!, PROBE_TIMEOUT_MS),
      heavyDone: heavyResults.length,
      heavyOutcome:
        heavy === 0
          ? '—'
          : heavyResults.length === 0
            ? 'none finished in the window'
            : `${[...outcomes].map(([o, n]) => `${n}× ${o}`).join(', ')}; median ${Math.round(percentile(durations, 50))} ms`,
    }
  } finally {
    await server.kill()
  }
}

type RecoveryRow = { scenario: string; hungCalls: string; recoveryMs: string; attempts: number; firstAttempt: string }

async function measureRecovery(anvilUrl: string, contract: string, callsDuringHang: number): Promise<RecoveryRow> {
  let hanging = false
  const proxy = await createProxy(anvilUrl, { onRequest: () => (hanging ? 'hang' : undefined) })
  const server = await startServer(proxy.url, ['--rpc.evmtimeout', '5s'])
  try {
    await rpcResult(server.url, 'eth_chainId')
    // The outage: every request to the upstream is held and never answered.
    hanging = true
    const hangStarted = performance.now()
    const hung: Promise<string>[] = []
    for (let i = 0; i < callsDuringHang; i++) {
      // Each at its own (new) block, spaced out, so each is its own upstream request.
      await rpcResult(anvilUrl, 'evm_mine', [])
      const block = await rpcResult(anvilUrl, 'eth_blockNumber')
      hung.push(
        timedRpc(server.url, envelope(i, 'eth_call', [{ to: contract, data: '0x' }, block]), RECOVERY_LIMIT_MS).then(
          (a) => {
            const after = Math.round((performance.now() - hangStarted) / 1000)
            if (a.kind !== 'answer') return `${a.kind} after ${after} s`
            const json = a.json as { result?: string; error?: { message?: string } }
            return json.error ? `error after ${after} s` : `result after ${after} s`
          },
        ),
      )
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, HANG_MS - (performance.now() - hangStarted))))
    const heldRequests = proxy.hanging
    // The upstream is back.
    hanging = false
    const resumed = performance.now()
    await rpcResult(anvilUrl, 'evm_mine', [])
    const block = await rpcResult(anvilUrl, 'eth_blockNumber')
    const expected = await rpcResult(anvilUrl, 'eth_call', [{ to: contract, data: '0x' }, block])
    let attempts = 0
    let firstAttempt = ''
    let recoveryMs = ''
    while (performance.now() - resumed < RECOVERY_LIMIT_MS) {
      attempts++
      const left = RECOVERY_LIMIT_MS - (performance.now() - resumed)
      const answer = await timedRpc(
        server.url,
        envelope(100 + attempts, 'eth_call', [{ to: contract, data: '0x' }, block]),
        left,
      )
      const json =
        answer.kind === 'answer' ? (answer.json as { result?: string; error?: { message?: string } }) : undefined
      if (!firstAttempt) {
        firstAttempt = `${json?.result === expected ? 'correct' : json?.error ? `error "${json.error.message?.slice(0, 60)}"` : answer.kind} in ${Math.round(answer.ms)} ms`
      }
      if (json?.result === expected) {
        recoveryMs = String(Math.round(performance.now() - resumed))
        break
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const hungOutcomes = await Promise.race([
      Promise.all(hung),
      new Promise<string[]>((resolve) => setTimeout(() => resolve(['still waiting']), 1000)),
    ])
    const summary = new Map<string, number>()
    for (const o of hungOutcomes) summary.set(o, (summary.get(o) ?? 0) + 1)
    return {
      scenario: `${callsDuringHang} cold call${callsDuringHang === 1 ? '' : 's'} during a ${HANG_MS / 1000} s hang (${heldRequests} upstream requests held)`,
      hungCalls: [...summary].map(([o, n]) => `${n}× ${o}`).join(', '),
      recoveryMs: recoveryMs || `> ${RECOVERY_LIMIT_MS}`,
      attempts,
      firstAttempt,
    }
  } finally {
    await server.kill()
    await proxy.stop()
  }
}

// ——— What one client can make the daemon hold (issue 32, items 1, 4, 5): the daemon's peak resident
// memory (its /proc status, every 10 ms) while one client pipelines 50 MB of requests without
// reading, and while one huge struct-log trace streams over each transport; another client's
// eth_chainId latency meanwhile (target p99 ≤ 100 ms); and 50 struct-log traces at once.

const BIG_TRACE_GAS = numberFlag('big-gas', 72_000)
/** JUMPDEST PUSH1 1 PUSH2 0x1fe0 MSTORE PUSH1 0 JUMP: each step shows 8 KiB of memory. */
const MEMORY_LOOP = '0x5b6001611fe052600056'

const residentKb = (pid: number): number => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
  } catch {
    return 0
  }
}

/** Samples a process's resident memory until stopped: its peak, MB. */
function watchResident(pid: number) {
  let peak = residentKb(pid)
  const timer = setInterval(() => {
    peak = Math.max(peak, residentKb(pid))
  }, 10)
  return {
    idleMb: Math.round(peak / 1024),
    stop: () => {
      clearInterval(timer)
      return Math.round(Math.max(peak, residentKb(pid)) / 1024)
    },
  }
}

/**
 * eth_chainId over HTTP every 20 ms until stopped: p50, p99 and max, ms. It runs on a thread of its
 * own, so that what this process does as the other client (take in a 250 MB message, send 50 MB) is
 * not counted as the daemon's latency.
 */
function probeChainId(url: string) {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads')
    const latencies = []
    let stopped = false
    parentPort.on('message', () => { stopped = true })
    ;(async () => {
      while (!stopped) {
        const started = performance.now()
        try {
          const res = await fetch(workerData.url, { method: 'POST', headers: { 'content-type': 'application/json' },
            body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}', signal: AbortSignal.timeout(workerData.limit) })
          await res.text()
          latencies.push(performance.now() - started)
        } catch { latencies.push(workerData.limit) }
        await new Promise((r) => setTimeout(r, workerData.every))
      }
      parentPort.postMessage(latencies)
    })()`,
    { eval: true, workerData: { url, every: PROBE_EVERY_MS, limit: PROBE_TIMEOUT_MS } },
  )
  return async () => {
    const latencies = await new Promise<number[]>((resolve) => {
      worker.once('message', resolve)
      worker.postMessage('stop')
    })
    await worker.terminate()
    const sorted = [...latencies].sort((a, b) => a - b)
    return {
      probes: sorted.length,
      p50: fmt(percentile(sorted, 50), PROBE_TIMEOUT_MS),
      p99: fmt(percentile(sorted, 99), PROBE_TIMEOUT_MS),
      max: fmt(sorted.at(-1)!, PROBE_TIMEOUT_MS),
    }
  }
}

/**
 * One streamed answer read without keeping it: its length, a hash, and its end (a whole answer ends
 * `"returnValue":"0x"}}`). `send` opens the transport and calls `chunk` for each piece until `end`.
 */
type Digest = { bytes: number; hash: string; tail: string }
function digestOf(start: (chunk: (piece: Buffer) => void, end: () => void, fail: (e: Error) => void) => void) {
  return new Promise<Digest>((resolve, reject) => {
    const hash = createHash('sha256')
    let bytes = 0
    let tail = ''
    start(
      (piece) => {
        hash.update(piece)
        bytes += piece.length
        tail = (tail + piece.toString('latin1')).slice(-80)
      },
      () => resolve({ bytes, hash: hash.digest('hex').slice(0, 12), tail }),
      reject,
    )
  })
}

function overHttp(url: string, body: string) {
  return digestOf((chunk, end, fail) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      res.on('data', chunk)
      res.on('end', end)
      res.on('error', fail)
    })
    req.on('error', fail)
    req.end(body)
  })
}

function overWebSocket(url: string, body: string) {
  return digestOf((chunk, end, fail) => {
    const ws = new WebSocket(url, { maxPayload: 2 ** 31 })
    ws.on('open', () => ws.send(body))
    ws.on('message', (data: Buffer) => {
      chunk(data)
      end()
      ws.terminate()
    })
    ws.on('error', fail)
  })
}

function overSocket(target: { path: string } | { port: number; host: string }, body: string) {
  return digestOf((chunk, end, fail) => {
    const socket = netConnect(target as never)
    socket.on('connect', () => socket.write(body))
    socket.on('data', (piece: Buffer) => {
      const at = piece.indexOf(0x0a)
      if (at < 0) return chunk(piece)
      chunk(piece.subarray(0, at))
      end()
      socket.destroy()
    })
    socket.on('error', fail)
  })
}

type BoundsRow = { scenario: string; idleMb: number; peakMb: number; probe: string; outcome: string }

async function measureBounds(anvilUrl: string, block: string, contract: string): Promise<BoundsRow[]> {
  const rows: BoundsRow[] = []
  const dir = mkdtempSync(join(tmpdir(), 'edgetrace-bench-'))
  const bigTrace = JSON.stringify(
    envelope(1, 'debug_traceCall', [
      { to: LOOP_ADDRESS, gas: `0x${BIG_TRACE_GAS.toString(16)}` },
      block,
      { enableMemory: true, timeout: '60s', stateOverrides: { [LOOP_ADDRESS]: { code: MEMORY_LOOP } } },
    ]),
  )
  const ipcPath = join(dir, 'edgetrace.ipc')
  const tcpPort = 20_000 + Math.floor(Math.random() * 20_000)
  const transports: { name: string; args: string[]; send(server: Server): Promise<Digest> }[] = [
    { name: 'HTTP', args: [], send: (server) => overHttp(server.url, bigTrace) },
    { name: 'WebSocket', args: [], send: (server) => overWebSocket(server.url.replace('http', 'ws'), bigTrace) },
    {
      name: 'IPC',
      args: ['--socket.url', `unix://${ipcPath}`],
      send: () => overSocket({ path: ipcPath }, bigTrace),
    },
    {
      name: 'TCP',
      args: ['--socket.url', `tcp://127.0.0.1:${tcpPort}`],
      send: () => overSocket({ host: '127.0.0.1', port: tcpPort }, bigTrace),
    },
  ]
  const args = ['--http.api', 'eth,debug', '--workers', '0']
  try {
    for (const transport of transports) {
      const server = await startServer(anvilUrl, [...args, ...transport.args])
      try {
        await timedRpc(server.url, envelope(1, 'eth_getCode', [contract, block]), 30_000) // warm
        const memory = watchResident(server.process.pid!)
        const probe = probeChainId(server.url)
        const started = performance.now()
        const outcome = await transport.send(server).then(
          (d) =>
            `${(d.bytes / 1e6).toFixed(0)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s, ${
              d.tail.endsWith('"returnValue":"0x"}}') && !d.tail.includes('"error"') ? 'whole' : `cut: …${d.tail}`
            } (sha256 ${d.hash})`,
          (err: Error) => `failed: ${err.message}`,
        )
        const p = await probe()
        rows.push({
          scenario: `one struct-log trace over ${transport.name}`,
          idleMb: memory.idleMb,
          peakMb: memory.stop(),
          probe: `${p.p50} / ${p.p99} / ${p.max} (${p.probes})`,
          outcome,
        })
      } finally {
        await server.kill()
      }
    }

    // One client pipelining 50 MB of eth_getCode without reading, over WebSocket and TCP.
    const request = `${JSON.stringify(envelope(1, 'eth_getCode', [contract, block]))}\n`
    const count = Math.ceil((50 * 1024 * 1024) / request.length)
    for (const kind of ['WebSocket', 'TCP'] as const) {
      const server = await startServer(anvilUrl, [...args, '--socket.url', `tcp://127.0.0.1:${tcpPort}`])
      try {
        await timedRpc(server.url, envelope(1, 'eth_getCode', [contract, block]), 30_000) // warm
        const memory = watchResident(server.process.pid!)
        let close: () => void
        if (kind === 'TCP') {
          const socket = netConnect({ host: '127.0.0.1', port: tcpPort })
          await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
          socket.pause()
          socket.on('error', () => undefined)
          const payload = request.repeat(count)
          socket.write(payload)
          close = () => socket.destroy()
        } else {
          const ws = new WebSocket(server.url.replace('http', 'ws'))
          await new Promise<void>((resolve) => ws.once('open', () => resolve()))
          ;(ws as unknown as { _socket: { pause(): void } })._socket.pause() // reads nothing
          ws.on('error', () => undefined)
          const text = request.trimEnd()
          for (let i = 0; i < count; i++) ws.send(text)
          close = () => ws.terminate()
        }
        const probe = probeChainId(server.url)
        await new Promise((r) => setTimeout(r, WINDOW_MS))
        const p = await probe()
        close()
        rows.push({
          scenario: `one client pipelining 50 MB (${count} eth_getCode) over ${kind}, not reading`,
          idleMb: memory.idleMb,
          peakMb: memory.stop(),
          probe: `${p.p50} / ${p.p99} / ${p.max} (${p.probes})`,
          outcome: `${WINDOW_MS / 1000} s; serving ${(await timedRpc(server.url, envelope(2, 'eth_chainId', []), 10_000)).kind === 'answer' ? 'on' : 'stopped'}`,
        })
      } finally {
        await server.kill()
      }
    }

    // 50 struct-log traces at once over HTTP (200 ms each alone), a 3 s tracer timeout.
    const server = await startServer(anvilUrl, args)
    try {
      const loop = JSON.stringify(
        envelope(1, 'debug_traceCall', [
          { to: LOOP_ADDRESS, gas: '0x61a80' },
          block,
          { timeout: '3s', stateOverrides: { [LOOP_ADDRESS]: { code: LOOP_CODE } } },
        ]),
      )
      const alone = await overHttp(server.url, loop)
      const memory = watchResident(server.process.pid!)
      const probe = probeChainId(server.url)
      const started = performance.now()
      const all = await Promise.all(Array.from({ length: 50 }, () => overHttp(server.url, loop)))
      const seconds = ((performance.now() - started) / 1000).toFixed(1)
      const p = await probe()
      const same = all.filter((d) => d.hash === alone.hash).length
      rows.push({
        scenario: '50 struct-log debug_traceCall at once over HTTP (6.6 MB each)',
        idleMb: memory.idleMb,
        peakMb: memory.stop(),
        probe: `${p.p50} / ${p.p99} / ${p.max} (${p.probes})`,
        outcome: `${same} of 50 complete and identical to the one alone, in ${seconds} s${
          same < 50 ? `; others end …${all.find((d) => d.hash !== alone.hash)!.tail.slice(-50)}` : ''
        }`,
      })
    } finally {
      await server.kill()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return rows
}

async function main() {
  const anvil = await startAnvil()
  try {
    const contract = await deploy(anvil.url, storageContractInitCode(7))
    await rpcResult(anvil.url, 'evm_mine', [])
    const block = await rpcResult(anvil.url, 'eth_blockNumber')
    if (process.argv.includes('--bounds')) return printBounds(await measureBounds(anvil.url, block, contract))

    const load: LoadRow[] = []
    for (const heavy of [0, 1, 10, 50]) load.push(await measureUnderLoad(anvil.url, block, heavy, 'eth_call'))
    for (const heavy of [1, 10, 50])
      load.push(await measureUnderLoad(anvil.url, block, heavy, 'debug_traceCall callTracer'))
    console.log(
      `\nedgetrace robustness — eth_chainId every ${PROBE_EVERY_MS} ms for ${WINDOW_MS / 1000} s while heavy calls run (endless loop, --rpc.evmtimeout 5s, --rpc.gascap 0)\n`,
    )
    console.log(
      '| heavy requests | at once | probes | answered | p50 ms | p99 ms | max ms | heavy answered | how they ended |',
    )
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|')
    for (const r of load)
      console.log(
        `| ${r.heavy === 0 ? '—' : r.kind} | ${r.heavy} | ${r.probes} | ${r.answered} | ${r.p50} | ${r.p99} | ${r.max} | ${r.heavyDone} | ${r.heavyOutcome} |`,
      )
    console.log(
      `\n(a probe not answered within ${PROBE_TIMEOUT_MS / 1000} s counts as "> ${PROBE_TIMEOUT_MS}"; target: p99 stays near the unloaded one, every heavy call ends at 5 s)`,
    )

    const recovery: RecoveryRow[] = []
    for (const n of [1, 16]) recovery.push(await measureRecovery(anvil.url, contract, n))
    console.log(
      `\nedgetrace robustness — recovery after the upstream hangs for ${HANG_MS / 1000} s (requests held during the hang are never answered)\n`,
    )
    console.log(
      '| scenario | recovery ms (resume → a new cold call answers correctly) | attempts | first attempt | calls made during the hang |',
    )
    console.log('|---|---:|---:|---|---|')
    for (const r of recovery)
      console.log(`| ${r.scenario} | ${r.recoveryMs} | ${r.attempts} | ${r.firstAttempt} | ${r.hungCalls} |`)
    console.log('\n(target: a cold call after the upstream is back answers at once, whatever was left hanging)')
    printBounds(await measureBounds(anvil.url, block, contract))
  } finally {
    await anvil.stop()
  }
}

function printBounds(rows: BoundsRow[]) {
  console.log(
    `\nedgetrace robustness — what one client can make the daemon hold (its resident memory, sampled every 10 ms); eth_chainId over HTTP every ${PROBE_EVERY_MS} ms meanwhile\n`,
  )
  console.log('| scenario | daemon idle MB | daemon peak MB | eth_chainId p50 / p99 / max ms (probes) | outcome |')
  console.log('|---|---:|---:|---|---|')
  for (const r of rows) console.log(`| ${r.scenario} | ${r.idleMb} | ${r.peakMb} | ${r.probe} | ${r.outcome} |`)
  console.log(
    `\n(the trace: JUMPDEST PUSH1 1 PUSH2 0x1fe0 MSTORE PUSH1 0 JUMP with enableMemory, ${BIG_TRACE_GAS} gas; target: peak memory independent of the answer's size and of what the client leaves unread, p99 ≤ 100 ms)`,
  )
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err)
    process.exit(1)
  },
)
