// Part of `npm run bench`: JavaScript tracers on the hot path. The compute-heavy call of
// bench/engine.ts (≈ 335k steps over 82 slots), warm, through the HTTP server: untraced, the native
// callTracer and struct logger, a step-counting JavaScript tracer, one reading the stack and memory
// on every step — both run on a hardened worker thread (SES) — and anvil running the same tracers
// itself. Medians of interleaved rounds; steps per second; each figure over the untraced call.
// `-- --engine ethereumjs`: edgetrace on @ethereumjs/evm alone (the default: the wasm engine, as the daemon's).
import { startAnvil } from '../src/node/devnet/startAnvil.js'
import { compiledStartEdgetrace } from './compiledStartEdgetrace.js'
import { HEAVY_RUNTIME, printInterleavedMedians, withInit } from './heavyCall.js'
import { DEV_ACCOUNT, deploy, rpcResult } from '../test/src/rpc.js'

const RUNTIME = HEAVY_RUNTIME
const ROUNDS = 7
/** `--engine ethereumjs` times edgetrace on @ethereumjs/evm alone (the default: wasm, as the daemon's). */
const ENGINE = process.argv.includes('--engine') ? process.argv[process.argv.indexOf('--engine') + 1] : 'wasm'
if (ENGINE !== 'wasm' && ENGINE !== 'ethereumjs') throw new Error(`--engine ${ENGINE}: wasm or ethereumjs`)

const COUNTER = '{ n: 0, step: function() { this.n++ }, fault: function() {}, result: function() { return this.n } }'
const READER = `{ n: 0, sum: 0,
  step: function(log) {
    this.n++
    if (log.stack.length() > 0) this.sum += log.stack.peek(0).toString(16) === '0' ? 0 : 1
    if (log.memory.length() >= 32) this.sum += log.memory.slice(0, 32)[31]
  },
  fault: function() {}, result: function() { return [this.n, this.sum] } }`

async function main() {
  const startEdgetrace = await compiledStartEdgetrace()
  const anvil = await startAnvil()
  const contract = await deploy(anvil.url, withInit(RUNTIME))
  await rpcResult(anvil.url, 'evm_mine', [])
  const edge = await startEdgetrace({
    upstream: anvil.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'debug'],
    workers: { threads: 1, warm: true },
    engine: { engine: ENGINE as 'wasm' | 'ethereumjs' },
  })
  const head = await rpcResult(anvil.url, 'eth_blockNumber', [])
  const call = { from: DEV_ACCOUNT, to: contract, data: '0x', gas: '0x2faf080' }
  const timeout = { timeout: '60s' }
  const steps = (await rpcResult(edge.url, 'debug_traceCall', [call, head, { tracer: COUNTER, ...timeout }])) as number
  const cases: [string, string, string, unknown[]][] = [
    ['edgetrace eth_call (untraced)', edge.url, 'eth_call', [call, head]],
    ['edgetrace callTracer (native)', edge.url, 'debug_traceCall', [call, head, { tracer: 'callTracer' }]],
    [
      'edgetrace struct logger (native, no storage)',
      edge.url,
      'debug_traceCall',
      [call, head, { disableStorage: true }],
    ],
    ['edgetrace JavaScript step counter', edge.url, 'debug_traceCall', [call, head, { tracer: COUNTER, ...timeout }]],
    [
      'edgetrace JavaScript stack + memory reader',
      edge.url,
      'debug_traceCall',
      [call, head, { tracer: READER, ...timeout }],
    ],
    ['anvil JavaScript step counter', anvil.url, 'debug_traceCall', [call, head, { tracer: COUNTER, ...timeout }]],
    [
      'anvil JavaScript stack + memory reader',
      anvil.url,
      'debug_traceCall',
      [call, head, { tracer: READER, ...timeout }],
    ],
  ]
  const post = async (url: string, method: string, params: unknown[]) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    const text = await res.text()
    if (text.includes('"error"')) throw new Error(`${method} failed: ${text.slice(0, 300)}`)
    return text
  }
  // Warm, and the same answer from both engines for each JavaScript tracer (anvil stops a tracer that throws silently).
  const answers = new Map<string, string>()
  for (const [name, url, method, params] of cases) {
    const text = await post(url, method, params)
    const tracer = name.replace(/^(edgetrace|anvil) /, '')
    const result = JSON.stringify(JSON.parse(text).result)
    if (name.includes('JavaScript') && answers.has(tracer) && answers.get(tracer) !== result)
      throw new Error(`${tracer}: anvil and edgetrace answer differently (${answers.get(tracer)} / ${result})`)
    answers.set(tracer, result)
  }
  await printInterleavedMedians({
    title: `JavaScript tracers — a call of ${steps.toLocaleString('en')} steps over 82 slots, warm, over HTTP, median of ${ROUNDS} interleaved rounds`,
    baseLabel: 'untraced',
    steps,
    rounds: ROUNDS,
    cases: cases.map(([name, url, method, params]) => [name, () => post(url, method, params)] as const),
  })
  console.log('\ntargets (issue 22): a step counter ≥ 1 M steps/s and ≤ 5× untraced; a stack and memory reader ≤ 15×')
  await edge.close()
  await anvil.stop()
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
