// npm run bench (last), or alone: tsx bench/robustness.ts [--window MS] [--hang MS]
// How edgetrace holds up: (1) eth_chainId latency seen by a client probing every 20 ms while 0, 1, 10
// and 50 heavy requests run (an eth_call whose state override installs an endless loop, and the same
// loop traced by debug_traceCall with callTracer: JUMPDEST PUSH1 0 JUMP, called with 2^48 gas, it
// ends only at --rpc.evmtimeout, 5 s here, gas cap off); (2) the time to recover after the upstream hangs: a loopback proxy holds every request for a
// few seconds (those requests are never answered), then serves again; measured from that moment until
// a new cold call answers correctly. The server runs as its own process (the CLI), so a stalled event
// loop in it cannot stall the measuring client. Real sockets on loopback only.
import { type ChildProcess, spawn } from 'node:child_process'
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

async function main() {
  const anvil = await startAnvil()
  try {
    const contract = await deploy(anvil.url, storageContractInitCode(7))
    await rpcResult(anvil.url, 'evm_mine', [])
    const block = await rpcResult(anvil.url, 'eth_blockNumber')

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
  } finally {
    await anvil.stop()
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err)
    process.exit(1)
  },
)
