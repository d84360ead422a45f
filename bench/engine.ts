// Part of `npm run bench`: execution speed against the interpreter itself. One compute-heavy call
// (a loop of ≈ 335k steps reading 82 storage slots) run (1) by plain @ethereumjs/evm on its own
// in-memory state (the floor: the interpreter and nothing around it), and (2) by edgetrace, warm
// (every slot proven and cached), untraced and with each tracer — through the JSON-RPC core as the
// server streams an answer, without the HTTP socket; and (3) by edgetrace with `engine: 'wasm'`
// (issue 37), untraced, with callTracer and with the struct logger (its frames stepped on the
// wasm), and by the wasm engine attached to the plain EVM (the interpreter and nothing around it).
// The calls name the block by number, as clients do; a call at a
// block that is not final yet (the devnet's head) asks the upstream again each time which block that
// number is (one request: the header; the access list kept for that block is used while it is the
// same block). The same calls at the block's hash (EIP-1898) ask nothing: those
// rows show the engine alone. Then mapping reads (KECCAK256 and a cold SLOAD, what compiled
// contracts do for every mapping) on the plain EVM, without and with the wasm engine. Medians of
// interleaved rounds; steps per second; each figure over the plain EVM's.
import { createEVM } from '@ethereumjs/evm'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { SimpleStateManager } from '@ethereumjs/statemanager'
import { Account, createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { startAnvil } from '../src/node/devnet/startAnvil.js'
import { compiledStartEdgetrace } from './compiledStartEdgetrace.js'
import { HEAVY_RUNTIME, median, withInit } from './heavyCall.js'
import { DEV_ACCOUNT, deploy, rpcResult } from '../test/src/rpc.js'

/** The compiled wasm engine and its module (dist/, as the daemons run them). */
async function compiledWasmEngine() {
  const engineUrl = new URL('../dist/wasm/createWasmEngine.js', import.meta.url)
  const loaderUrl = new URL('../dist/node/loadWasmEvmModule.js', import.meta.url)
  const { createWasmEngine, newWasmEngineCounters } = (await import(
    engineUrl.href
  )) as typeof import('../src/wasm/createWasmEngine.js')
  const { loadWasmEvmModule } = (await import(loaderUrl.href)) as typeof import('../src/node/loadWasmEvmModule.js')
  return { engine: await createWasmEngine(await loadWasmEvmModule()), counters: newWasmEngineCounters() }
}

const RUNTIME = HEAVY_RUNTIME
/**
 * Mapping reads as compiled contracts do them, 5,000 times: the key and the mapping's slot into
 * memory, KECCAK256 of the 64 bytes, SLOAD of that (a new, cold slot each time).
 */
const MAPPING_READS = '6113885b8060005260036020526040600020545060019003806100035700'
const ROUNDS = 15

async function plainEvm(wasm?: Awaited<ReturnType<typeof compiledWasmEngine>>, runtime = RUNTIME) {
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague })
  // Its SLOADs answered at once, as the daemon's verified cache does for the wasm engine (every slot is empty).
  const stateManager = Object.assign(new SimpleStateManager(), { storageAtHand: () => new Uint8Array(0) })
  const evm = await createEVM({ common, stateManager })
  const to = createAddressFromString(`0x${'ab'.repeat(20)}`)
  const caller = createAddressFromString(DEV_ACCOUNT)
  await stateManager.putAccount(to, new Account())
  await stateManager.putCode(to, hexToBytes(`0x${runtime}`))
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
  wasm?.engine.attach(evm, { counters: wasm.counters })
  return { run, steps }
}

/**
 * Times the cases in interleaved rounds and prints their medians (ms to a tenth: the wasm rows are a
 * few ms), M steps/s, each over the first, and the spread (the 25th to 75th percentile: this 2-core
 * machine runs other work at the same time).
 */
async function printMedians(title: string, steps: number, cases: [string, () => Promise<unknown>][]) {
  const samples = cases.map(() => [] as number[])
  for (let round = 0; round < ROUNDS; round++)
    for (const [i, [, run]] of cases.entries()) {
      const t = performance.now()
      await run()
      samples[i]!.push(performance.now() - t)
    }
  const base = median(samples[0]!)
  const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]!
  console.log(`\n${title}\n`)
  console.log('| run | ms | M steps/s | × plain EVM | p25–p75 ms |')
  console.log('|---|---:|---:|---:|---:|')
  for (const [i, [name]] of cases.entries()) {
    const xs = samples[i]!
    const ms = median(xs)
    const spread = `${quantile(xs, 0.25).toFixed(1)}–${quantile(xs, 0.75).toFixed(1)}`
    console.log(
      `| ${name} | ${ms.toFixed(1)} | ${(steps / ms / 1000).toFixed(2)} | ${(ms / base).toFixed(3)} | ${spread} |`,
    )
  }
}

async function main() {
  const startEdgetrace = await compiledStartEdgetrace()
  const plain = await plainEvm()
  const wasm = await compiledWasmEngine()
  const plainWasm = await plainEvm(wasm)
  const mappingPlain = await plainEvm(undefined, MAPPING_READS)
  const mappingWasm = await plainEvm(wasm, MAPPING_READS)
  const anvil = await startAnvil()
  const contract = await deploy(anvil.url, withInit(RUNTIME))
  await rpcResult(anvil.url, 'evm_mine', [])
  // `--engine ethereumjs`, named: the default is wasm (issue 37), on the second daemon.
  const edge = await startEdgetrace({
    upstream: anvil.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'debug'],
    engine: { engine: 'ethereumjs' },
  })
  // `--engine wasm` (issue 37, the default): the same calls on a second daemon whose frames run in WebAssembly.
  const wasmEdge = await startEdgetrace({
    upstream: anvil.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'debug'],
    engine: { engine: 'wasm' },
  })
  const head = await rpcResult(anvil.url, 'eth_blockNumber', [])
  const { hash } = await rpcResult(anvil.url, 'eth_getBlockByNumber', [head, false])
  const atHash = { blockHash: hash }
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
    ['plain @ethereumjs/evm + the wasm engine, in-memory state', plainWasm.run],
    ['edgetrace --engine ethereumjs eth_call (untraced)', () => rpc('eth_call', [call, head])],
    [
      'edgetrace --engine ethereumjs debug_traceCall callTracer',
      () => rpc('debug_traceCall', [call, head, { tracer: 'callTracer' }]),
    ],
    ['edgetrace --engine wasm eth_call (untraced)', () => wasmRpc('eth_call', [call, head])],
    [
      'edgetrace --engine wasm debug_traceCall callTracer',
      () => wasmRpc('debug_traceCall', [call, head, { tracer: 'callTracer' }]),
    ],
    ['edgetrace --engine wasm eth_call at the block hash (0 requests)', () => wasmRpc('eth_call', [call, atHash])],
    [
      'edgetrace --engine wasm callTracer at the block hash (0 requests)',
      () => wasmRpc('debug_traceCall', [call, atHash, { tracer: 'callTracer' }]),
    ],
    // anvil (revm, compiled) answering the same call at the same block, over its HTTP socket.
    ['anvil eth_call (revm, over HTTP)', () => rpcResult(anvil.url, 'eth_call', [call, head])],
    ['anvil eth_call at the block hash', () => rpcResult(anvil.url, 'eth_call', [call, atHash])],
    [
      'edgetrace --engine ethereumjs debug_traceCall prestateTracer',
      () => rpc('debug_traceCall', [call, head, { tracer: 'prestateTracer' }]),
    ],
    [
      'edgetrace --engine ethereumjs struct logger (no storage)',
      () => rpc('debug_traceCall', [call, head, { disableStorage: true }]),
    ],
    [
      'edgetrace --engine wasm struct logger (no storage)',
      () => wasmRpc('debug_traceCall', [call, head, { disableStorage: true }]),
    ],
  ]
  for (const [, run] of cases) await run() // warm
  await printMedians(
    `edgetrace engine — a call of ${plain.steps.toLocaleString('en')} steps over 82 slots, warm, median of ${ROUNDS} interleaved rounds`,
    plain.steps,
    cases,
  )
  const mappingCases: [string, () => Promise<unknown>][] = [
    ['plain @ethereumjs/evm, in-memory state', mappingPlain.run],
    ['plain @ethereumjs/evm + the wasm engine, in-memory state', mappingWasm.run],
  ]
  for (const [, run] of mappingCases) await run()
  await printMedians(
    `mapping reads — KECCAK256 of 64 bytes and SLOAD of a new slot, 5,000 times (${mappingPlain.steps.toLocaleString('en')} steps), median of ${ROUNDS} interleaved rounds`,
    mappingPlain.steps,
    mappingCases,
  )
  console.log('\ntargets (issue 20): callTracer ≤ 1.3× plain and ≥ 3 M steps/s; struct logger ≤ 3× untraced')
  console.log('targets (issue 37): --engine wasm untraced ≥ 15× faster than edgetrace on ethereumjs, ≤ 3× anvil')
  const wasmCounters = wasmEdge.engine.wasm?.counters
  console.log(
    `--engine wasm: ${wasmCounters?.frames} frames in wasm (${wasmCounters?.steppedFrames} step by step, ${wasmCounters?.directSteps} steps handed to the tracer directly), ${wasmCounters?.hostSteps} host steps, ${wasmCounters?.hostSloads} SLOADs answered by the host at once, fallbacks ${JSON.stringify(wasmCounters?.fallbacks)}`,
  )
  const hostOps = (wasmCounters?.hostOps ?? []).flatMap((n, op) => (n > 0 ? [`0x${op.toString(16)}: ${n}`] : []))
  console.log(`--engine wasm host steps by opcode: ${hostOps.join(', ')}`)
  console.log(`--engine wasm daemon: ${wasmEdge.upstream.stats().requests} upstream requests in all`)
  await wasmEdge.close()
  await edge.close()
  await anvil.stop()
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
