// The gate of issue 37: is an AssemblyScript/WebAssembly interpreter (the prototype in
// src/wasm/assembly/, run by src/wasm/runWasmFrame.ts) at least 5× faster than @ethereumjs/evm on
// the engine benches' heavy call (bench/heavyCall.ts), untraced, its SLOADs answered by the host in
// JavaScript? Needs `npm run build:wasm` first (reads dist/wasm/evm.wasm; refuses a stale one).
// `npx tsx bench/wasmGate.ts`: checks that both engines agree (gas used exactly; the sum of the
// slots read, returned by a variant of the call), then times both in interleaved rounds.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createEVM } from '@ethereumjs/evm'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { SimpleStateManager } from '@ethereumjs/statemanager'
import { Account, bytesToHex, createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import type { Hex } from '../src/types/hex.js'
import { type FrameStorage, loadWasmEvm, type WasmEvm } from '../src/wasm/loadWasmEvm.js'
import { runWasmFrame, type WasmCall } from '../src/wasm/runWasmFrame.js'
import { HEAVY_RUNTIME, median, printInterleavedMedians } from './heavyCall.js'
import { DEV_ACCOUNT } from '../test/src/rpc.js'

const ROOT = resolve(import.meta.dirname, '..')
const WASM = join(ROOT, 'dist/wasm/evm.wasm')
const ROUNDS = 15
const GAS_LIMIT = 50_000_000n
const SLOTS = 82
const ITERATIONS = 25_800

/**
 * The heavy call's loop with the values read summed and returned (the gas differs from HEAVY_RUNTIME's,
 * the work is the same kind): acc = 0; for n = 25,800 down to 1: acc += SLOAD(n mod 82); return acc.
 */
const SUMMING_RUNTIME = [
  '6000', // acc = 0
  `62${ITERATIONS.toString(16).padStart(6, '0')}`, // n
  '5b', // pc 6: JUMPDEST
  '80605290065482019150', // acc += SLOAD(n mod 82): DUP1 PUSH1 82 SWAP1 MOD SLOAD DUP3 ADD SWAP2 POP
  '6001900380600657', // n -= 1; if n != 0 jump to 6
  '50600052', // POP n; MSTORE(0, acc)
  '60206000f3', // RETURN(0, 32)
].join('')

/** Slot i (0..81) holds keccak256(i): nonzero, 32 bytes (unpadded as the overlay keeps them). */
function slotValues(): Map<Hex, Uint8Array> {
  const slots = new Map<Hex, Uint8Array>()
  for (let i = 0; i < SLOTS; i++) {
    let value: Uint8Array = keccak_256(new Uint8Array([i]))
    while (value[0] === 0) value = value.subarray(1)
    slots.set(`0x${i.toString(16).padStart(64, '0')}`, value)
  }
  return slots
}

function expectedSum(slots: Map<Hex, Uint8Array>): bigint {
  const values = [...slots.values()].map((v) => BigInt(bytesToHex(v)))
  let sum = 0n
  for (let n = ITERATIONS; n > 0; n--) sum += values[n % SLOTS]!
  return sum % 2n ** 256n
}

/** Plain @ethereumjs/evm as bench/engine.ts runs it, with the 82 slots set in its SimpleStateManager. */
async function plainEvm(runtime: string, slots: Map<Hex, Uint8Array>) {
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague })
  const stateManager = new SimpleStateManager()
  const evm = await createEVM({ common, stateManager })
  const to = createAddressFromString(`0x${'ab'.repeat(20)}`)
  const caller = createAddressFromString(DEV_ACCOUNT)
  await stateManager.putAccount(to, new Account())
  await stateManager.putCode(to, hexToBytes(`0x${runtime}`))
  await stateManager.putAccount(caller, new Account(0n, 10n ** 20n))
  for (const [slot, value] of slots) await stateManager.putStorage(to, hexToBytes(slot), value)
  const run = async () => {
    const result = await evm.runCall({ caller, to, gasLimit: GAS_LIMIT })
    if (result.execResult.exceptionError) throw result.execResult.exceptionError
    return result.execResult
  }
  let steps = 0
  const count = (_: unknown, next?: () => void) => {
    steps++
    next?.()
  }
  evm.events!.on('step', count)
  const first = await run()
  evm.events!.off('step', count)
  return { run, first, steps }
}

/** The wasm prototype's call of `runtime`, its FrameStorage over `slots` counting its lookups. */
function wasmCall(runtime: string, slots: Map<Hex, Uint8Array>) {
  const code = hexToBytes(`0x${runtime}`)
  const lookups = { count: 0 }
  const empty = new Uint8Array(0)
  const storage: FrameStorage = {
    current(slot) {
      lookups.count++
      return slots.get(slot) ?? empty
    },
    original: (slot) => slots.get(slot) ?? empty,
    fetch: async () => {},
  }
  const call: WasmCall = {
    code,
    codeHash: bytesToHex(keccak_256(code)),
    address: hexToBytes(`0x${'ab'.repeat(20)}`),
    caller: hexToBytes(DEV_ACCOUNT),
    value: 0n,
    data: new Uint8Array(0),
    gasLimit: GAS_LIMIT,
    storage,
  }
  return { call, lookups }
}

/** A diagnostic, not a configuration: the same module with a host whose SLOAD answers a constant at once. */
async function nullHostRun(bytes: BufferSource, runtime: string) {
  let mem = new Uint8Array(0)
  let memory: WebAssembly.Memory | undefined
  const view = () => (mem.byteLength === 0 ? (mem = new Uint8Array(memory!.buffer)) : mem)
  const host = {
    sload(_key: number, out: number) {
      view()[out + 31] = 1
      return 1
    },
    storageForStore: () => 0,
    sstore() {},
  }
  const { instance } = await WebAssembly.instantiate(bytes, { host })
  const x = instance.exports as unknown as Record<string, (...args: unknown[]) => number> & {
    memory: WebAssembly.Memory
  }
  memory = x.memory
  const code = hexToBytes(`0x${runtime}`)
  const rec = x.allocCode!(code.length)
  view().set(code, rec + 32)
  x.analyseCode!(rec)
  return async () => {
    x.beginTransaction!()
    x.beginCall!(0)
    x.run!(rec, GAS_LIMIT, 0, 0)
    x.endCall!()
  }
}

function checkFresh() {
  let built: number
  try {
    built = statSync(WASM).mtimeMs
  } catch {
    throw new Error(`no ${WASM}: run \`npm run build:wasm\` first`)
  }
  const sources = [
    join(ROOT, 'src/wasm/asconfig.json'),
    ...readdirSync(join(ROOT, 'src/wasm/assembly')).map((f) => join(ROOT, 'src/wasm/assembly', f)),
  ]
  for (const source of sources)
    if (statSync(source).mtimeMs > built) throw new Error(`${WASM} is older than ${source}: run \`npm run build:wasm\``)
}

async function main() {
  checkFresh()
  const bytes = new Uint8Array(readFileSync(WASM))
  const slots = slotValues()
  const wasm: WasmEvm = await loadWasmEvm(bytes)
  const naive: WasmEvm = await loadWasmEvm(bytes, { slotCache: false })

  // Agreement: gas used (the first, cold run of each engine: 82 cold SLOADs), and the summing variant's result.
  for (const runtime of [HEAVY_RUNTIME, SUMMING_RUNTIME]) {
    const plain = await plainEvm(runtime, slots)
    for (const engine of [wasm, naive]) {
      const result = await runWasmFrame(engine, wasmCall(runtime, slots).call)
      const same =
        result.status === (plain.first.returnValue.length > 0 ? 'return' : 'stop') &&
        result.gasUsed === plain.first.executionGasUsed &&
        bytesToHex(result.returnValue) === bytesToHex(plain.first.returnValue)
      if (!same)
        throw new Error(
          `the engines disagree: ethereumjs gas ${plain.first.executionGasUsed} return ${bytesToHex(plain.first.returnValue)}; wasm ${result.status} gas ${result.gasUsed} return ${bytesToHex(result.returnValue)}`,
        )
    }
    if (runtime === SUMMING_RUNTIME && BigInt(bytesToHex(plain.first.returnValue)) !== expectedSum(slots))
      throw new Error('the summing call returned a wrong sum')
    console.log(
      `agree: ${runtime === HEAVY_RUNTIME ? 'heavy call' : 'summing variant'}, ${plain.steps.toLocaleString('en')} steps, gas used ${plain.first.executionGasUsed.toLocaleString('en')}${runtime === SUMMING_RUNTIME ? `, returned sum ${bytesToHex(plain.first.returnValue).slice(0, 18)}… (as computed in JS)` : ''}`,
    )
  }

  const plain = await plainEvm(HEAVY_RUNTIME, slots)
  const cached = wasmCall(HEAVY_RUNTIME, slots)
  const byKey = wasmCall(HEAVY_RUNTIME, slots)
  const nullHost = await nullHostRun(bytes, HEAVY_RUNTIME)
  const check = (expected: bigint) => (gasUsed: bigint) => {
    if (gasUsed !== expected) throw new Error(`gas used ${gasUsed}, expected ${expected}`)
  }
  // ethereumjs's later runs find the slots warm (bench/engine.ts's way: runCall keeps its journal
  // between calls); each wasm run is a new transaction (82 cold slots): the wasm side does the more work.
  const warmGas = (await plain.run()).executionGasUsed
  const coldGas = plain.first.executionGasUsed
  const samples: Record<string, number[]> = { plain: [], cached: [], byKey: [], nullHost: [] }
  const timed = (name: string, run: () => Promise<unknown>) => async () => {
    const t = performance.now()
    await run()
    samples[name]!.push(performance.now() - t)
  }
  const cases: [string, () => Promise<unknown>][] = [
    [
      'plain @ethereumjs/evm, in-memory state',
      timed('plain', async () => check(warmGas)((await plain.run()).executionGasUsed)),
    ],
    [
      'wasm prototype, SLOAD via host (SlotCache)',
      timed('cached', async () => check(coldGas)((await runWasmFrame(wasm, cached.call)).gasUsed)),
    ],
    [
      'wasm prototype, SLOAD via host (hex key, Map)',
      timed('byKey', async () => check(coldGas)((await runWasmFrame(naive, byKey.call)).gasUsed)),
    ],
    ['(diagnostic) wasm, host SLOAD returns a constant', timed('nullHost', nullHost)],
  ]
  for (const [, run] of cases) await run() // warm the JITs
  for (const list of Object.values(samples)) list.length = 0
  const calls = { cached: wasm.hostCalls.sload, byKey: naive.hostCalls.sload }
  const lookups = { cached: cached.lookups.count, byKey: byKey.lookups.count }
  await printInterleavedMedians({
    title: `issue 37 gate — the heavy call (${plain.steps.toLocaleString('en')} steps, 82 slots), untraced, median of ${ROUNDS} interleaved rounds`,
    baseLabel: 'plain EVM',
    steps: plain.steps,
    rounds: ROUNDS,
    cases,
  })
  const runs = ROUNDS
  const per = (n: number, m: number) => ((n - m) / runs).toLocaleString('en')
  console.log(
    `\nhost calls a run: ${per(wasm.hostCalls.sload, calls.cached)} SLOADs (SlotCache: ${per(cached.lookups.count, lookups.cached)} FrameStorage lookups; hex key: ${per(naive.hostCalls.sload, calls.byKey)} SLOADs, ${per(byKey.lookups.count, lookups.byKey)} lookups)`,
  )
  console.log(`dist/wasm/evm.wasm: ${statSync(WASM).size.toLocaleString('en')} bytes`)
  const base = median(samples.plain!)
  for (const name of ['cached', 'byKey'] as const) {
    const ratio = base / median(samples[name]!)
    console.log(
      `speed-up over @ethereumjs/evm (${name === 'cached' ? 'SlotCache' : 'hex key'}): ${ratio.toFixed(1)}× — gate (≥ 5×): ${ratio >= 5 ? 'passed' : 'NOT passed'}`,
    )
  }
  const ms = (name: string) => median(samples[name]!)
  console.log(
    `medians, ms: ethereumjs ${ms('plain').toFixed(1)}, wasm SlotCache ${ms('cached').toFixed(2)}, wasm hex key ${ms('byKey').toFixed(2)}, wasm constant-answer host ${ms('nullHost').toFixed(2)}`,
  )
  const hostWork = ms('cached') - ms('nullHost')
  console.log(
    `host SLOAD work (SlotCache run less the constant-answer run): ${((hostWork / ms('cached')) * 100).toFixed(0)}% of the wasm run, ${((hostWork * 1e6) / ITERATIONS).toFixed(0)} ns an SLOAD`,
  )
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
