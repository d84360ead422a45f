// Part of `npm run bench`: execution speed against the interpreter itself. One compute-heavy call
// (a loop of ≈ 335k steps reading 82 storage slots) run (1) by plain @ethereumjs/evm on its own
// in-memory state (the floor: the interpreter and nothing around it), and (2) by edgetrace, warm
// (every slot proven and cached), untraced and with each tracer — through the JSON-RPC core as the
// server streams an answer, without the HTTP socket; and (3) by edgetrace with `engine: 'wasm'`
// (issue 37), untraced and with callTracer. Medians of interleaved rounds; steps per second; each
// figure over the plain EVM's.
import { createEVM } from '@ethereumjs/evm'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { SimpleStateManager } from '@ethereumjs/statemanager'
import { Account, createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { startAnvil } from '../src/node/devnet/startAnvil.js'
import { compiledStartEdgetrace } from './compiledStartEdgetrace.js'
import { HEAVY_RUNTIME, printInterleavedMedians, withInit } from './heavyCall.js'
import { DEV_ACCOUNT, deploy, rpcResult } from '../test/src/rpc.js'

const RUNTIME = HEAVY_RUNTIME
const ROUNDS = 15

async function plainEvm() {
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague })
  const stateManager = new SimpleStateManager()
  const evm = await createEVM({ common, stateManager })
  const to = createAddressFromString(`0x${'ab'.repeat(20)}`)
  const caller = createAddressFromString(DEV_ACCOUNT)
  await stateManager.putAccount(to, new Account())
  await stateManager.putCode(to, hexToBytes(`0x${RUNTIME}`))
  await stateManager.putAccount(caller, new Account(0n, 10n ** 20n))
  let steps = 0
  const run = async () => {
    const result = await evm.runCall({ caller, to, gasLimit: 50_000_000n })
    if (result.execResult.exceptionError) throw result.execResult.exceptionError
    steps = Number(result.execResult.executionGasUsed) // replaced below by a counted run
    return result
  }
  let counted = 0
  const count = (_: unknown, next?: () => void) => {
    counted++
    next?.()
  }
  evm.events!.on('step', count)
  await run()
  evm.events!.off('step', count)
  steps = counted
  return { run, steps }
}

async function main() {
  const startEdgetrace = await compiledStartEdgetrace()
  const plain = await plainEvm()
  const anvil = await startAnvil()
  const contract = await deploy(anvil.url, withInit(RUNTIME))
  await rpcResult(anvil.url, 'evm_mine', [])
  const edge = await startEdgetrace({ upstream: anvil.url, port: 0, hardfork: 'prague', api: ['eth', 'debug'] })
  // `--engine wasm` (issue 37): the same calls on a second daemon whose frames run in WebAssembly.
  const wasmEdge = await startEdgetrace({
    upstream: anvil.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'debug'],
    engine: { engine: 'wasm' },
  })
  const head = await rpcResult(anvil.url, 'eth_blockNumber', [])
  const call = { from: DEV_ACCOUNT, to: contract, data: '0x', gas: '0x2faf080' }
  // As the server answers: the response streamed in chunks (big traces leave while they are made).
  const rpcOn = (daemon: typeof edge) => async (method: string, params: unknown[]) => {
    let bytes = 0
    let tail = ''
    await daemon.handler.handleTextStreaming(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      async (chunk) => {
        bytes += chunk.length
        tail = (tail + chunk).slice(-200)
      },
    )
    if (tail.includes('"error"')) throw new Error(`${method} failed: …${tail}`)
    return bytes
  }
  const rpc = rpcOn(edge)
  const wasmRpc = rpcOn(wasmEdge)
  const cases: [string, () => Promise<unknown>][] = [
    ['plain @ethereumjs/evm, in-memory state', plain.run],
    ['edgetrace eth_call (untraced)', () => rpc('eth_call', [call, head])],
    ['edgetrace debug_traceCall callTracer', () => rpc('debug_traceCall', [call, head, { tracer: 'callTracer' }])],
    ['edgetrace --engine wasm eth_call (untraced)', () => wasmRpc('eth_call', [call, head])],
    [
      'edgetrace --engine wasm debug_traceCall callTracer',
      () => wasmRpc('debug_traceCall', [call, head, { tracer: 'callTracer' }]),
    ],
    // anvil (revm, compiled) answering the same call at the same block, over its HTTP socket.
    ['anvil eth_call (revm, over HTTP)', () => rpcResult(anvil.url, 'eth_call', [call, head])],
    [
      'edgetrace debug_traceCall prestateTracer',
      () => rpc('debug_traceCall', [call, head, { tracer: 'prestateTracer' }]),
    ],
    [
      'edgetrace debug_traceCall struct logger (no storage)',
      () => rpc('debug_traceCall', [call, head, { disableStorage: true }]),
    ],
  ]
  for (const [, run] of cases) await run() // warm
  await printInterleavedMedians({
    title: `edgetrace engine — a call of ${plain.steps.toLocaleString('en')} steps over 82 slots, warm, median of ${ROUNDS} interleaved rounds`,
    baseLabel: 'plain EVM',
    steps: plain.steps,
    rounds: ROUNDS,
    cases,
  })
  console.log('\ntargets (issue 20): callTracer ≤ 1.3× plain and ≥ 3 M steps/s; struct logger ≤ 3× untraced')
  console.log('targets (issue 37): --engine wasm untraced ≥ 15× faster than edgetrace on ethereumjs, ≤ 3× anvil')
  const wasmCounters = wasmEdge.engine.wasm?.counters
  console.log(
    `--engine wasm: ${wasmCounters?.frames} frames in wasm, ${wasmCounters?.hostSteps} host steps, fallbacks ${JSON.stringify(wasmCounters?.fallbacks)}`,
  )
  await wasmEdge.close()
  await edge.close()
  await anvil.stop()
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
