// Part of `npm run bench`: what tracing costs. A real anvil node (no added latency: everything is
// warm after the first run, so these are CPU figures); edgetrace in front of it with debug enabled.
// Printed: each tracer's time over untraced execution (eth_call) of the same heavy call, struct-log
// steps per second, and for a streamed million-step struct-log trace the time to first byte, the
// total time and the server's peak memory.
import { startAnvil } from '../src/node/devnet/startAnvil.js'
import { startEdgetrace } from '../src/node/startEdgetrace.js'
import { DEV_ACCOUNT, deploy, rpcResult } from '../test/src/rpc.js'

const hex = (n: number, bytes: number) => n.toString(16).padStart(bytes * 2, '0')
const withInit = (code: string) => `0x61${hex(code.length / 2, 2)}80600c6000396000f3${code}`

/** `iterations` times: a STATICCALL to the identity precompile and a countdown (≈ 20 ops, 1 frame each). */
const callLoop = (iterations: number) =>
  withInit(`61${hex(iterations, 2)}5b602060006020600060045afa50600190038060035700`)
/** A pure countdown loop of ≈ 8 ops per iteration (for a trace of about a million steps). */
const countdown = (iterations: number) => withInit(`62${hex(iterations, 3)}5b600190036000506000508060045700`)

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function main() {
  const anvil = await startAnvil()
  const heavy = await deploy(anvil.url, callLoop(2000))
  const million = await deploy(anvil.url, countdown(125_000))
  await rpcResult(anvil.url, 'evm_mine', [])
  const edge = await startEdgetrace({ upstream: anvil.url, port: 0, hardfork: 'prague', api: ['eth', 'debug'] })
  const call = { from: DEV_ACCOUNT, to: heavy, data: '0x', gas: '0x2faf080' }
  const post = (body: unknown) =>
    fetch(edge.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

  const traced = (config: unknown) => () => rpcResult(edge.url, 'debug_traceCall', [call, 'latest', config])
  const cases: [string, () => Promise<unknown>][] = [
    ['eth_call (untraced)', () => rpcResult(edge.url, 'eth_call', [call, 'latest'])],
    ['noopTracer', traced({ tracer: 'noopTracer' })],
    ['callTracer', traced({ tracer: 'callTracer' })],
    ['callTracer withLog', traced({ tracer: 'callTracer', tracerConfig: { withLog: true } })],
    ['flatCallTracer', traced({ tracer: 'flatCallTracer' })],
    ['prestateTracer', traced({ tracer: 'prestateTracer' })],
    ['4byteTracer', traced({ tracer: '4byteTracer' })],
    ['struct logger', traced({})],
    ['struct logger with memory', traced({ enableMemory: true })],
  ]
  // Rounds interleave every case (so drift of a shared, noisy machine hits them alike); median per case.
  const ROUNDS = 15
  const samples = cases.map(() => [] as number[])
  for (const [, run] of cases) await run() // warm: state cached, code compiled
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, [, run]] of cases.entries()) {
      const t = performance.now()
      await run()
      samples[i]!.push(performance.now() - t)
    }
  }
  const rows: [string, number][] = cases.map(([name], i) => [name, median(samples[i]!)])
  const base = rows[0]![1]
  const logs = await traced({})()
  const steps = (logs as { structLogs: unknown[] }).structLogs.length
  console.log(
    `\nedgetrace tracing benchmark — a call of 2000 iterations (2001 frames, ${steps} steps), warm, median of 15 interleaved rounds\n`,
  )
  console.log('| tracer | ms | × untraced |')
  console.log('|---|---:|---:|')
  for (const [name, ms] of rows) console.log(`| ${name} | ${ms.toFixed(1)} | ${(ms / base).toFixed(2)} |`)
  const structMs = rows.find((r) => r[0] === 'struct logger')![1]
  console.log(
    `\nstruct logger: ${Math.round(steps / (structMs / 1000)).toLocaleString('en')} steps/s (rendered and sent over HTTP)`,
  )
  console.log(`targets: callTracer ≤ 1.3×, struct logger ≤ 4×`)

  // A streamed million-step trace: time to first byte, total, and the server's peak memory.
  const bigCall = { from: DEV_ACCOUNT, to: million, data: '0x', gas: '0x2faf080' }
  await rpcResult(edge.url, 'eth_call', [bigCall, 'latest'])
  global.gc?.()
  const before = process.memoryUsage()
  let peakRss = before.rss
  let peakHeap = before.heapUsed
  const sampler = setInterval(() => {
    const m = process.memoryUsage()
    peakRss = Math.max(peakRss, m.rss)
    peakHeap = Math.max(peakHeap, m.heapUsed)
  }, 10)
  const started = performance.now()
  // A timeout of its own: at ~250k steps/s it runs near the 5 s default, and a busy machine must not cut it short.
  const res = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'debug_traceCall',
    params: [bigCall, 'latest', { timeout: '60s' }],
  })
  const reader = res.body!.getReader()
  let ttfb = 0
  let bytes = 0
  let tail = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    if (ttfb === 0) ttfb = performance.now() - started
    bytes += value.length
    tail = (tail + new TextDecoder().decode(value)).slice(-200)
  }
  const total = performance.now() - started
  clearInterval(sampler)
  const mib = (n: number) => (n / 2 ** 20).toFixed(0)
  const stepCount = 1 + 125_000 * 8 + 1
  console.log(
    `\nstreamed struct-log trace of ≈${stepCount.toLocaleString('en')} steps (${mib(bytes)} MiB of JSON, ${res.headers.get('transfer-encoding')}):`,
  )
  console.log(
    `  time to first byte ${ttfb.toFixed(0)} ms, total ${(total / 1000).toFixed(1)} s (${Math.round(stepCount / (total / 1000)).toLocaleString('en')} steps/s)`,
  )
  console.log(
    `  server process peak: heap used +${mib(peakHeap - before.heapUsed)} MiB, RSS +${mib(peakRss - before.rss)} MiB over ${mib(before.rss)} MiB (the client here discards the bytes as they arrive)`,
  )
  if (!tail.includes('"failed":false')) throw new Error(`the streamed trace did not end well: …${tail}`)
  await edge.close()
  await anvil.stop()
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
