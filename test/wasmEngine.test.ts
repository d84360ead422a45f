// The wasm engine (issue 37) against ethereumjs through edgetrace: two daemons in front of one
// devnet, `engine: 'wasm'` and the default, must answer the same work identically — every devnet
// transaction traced with callTracer, prestateTracer (diff mode too) and trace_replayTransaction
// [trace, stateDiff], replayed as eth_call and eth_estimateGas, and seeded random programs
// (test/src/randomEvmProgram.ts) run by debug_traceCall with state overrides — and the wasm daemon
// must have run frames in wasm with no fallback (so the test cannot pass by falling back).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { withDevnet } from './src/devnet.js'
import { createRandom, randomProgram } from './src/randomEvmProgram.js'
import { DEV_ACCOUNT, rpc } from './src/rpc.js'

let devnet: Devnet
let wasm: RunningEdgetrace
let plain: RunningEdgetrace

beforeAll(async () => {
  devnet = await withDevnet()
  const options = { upstream: devnet.anvil.url, port: 0, hardfork: 'prague', api: ['eth', 'debug', 'trace'] }
  ;[wasm, plain] = await Promise.all([
    startEdgetrace({ ...options, engine: { engine: 'wasm' } }),
    startEdgetrace({ ...options, engine: { engine: 'ethereumjs' } }),
  ])
}, 120_000)

afterAll(async () => {
  await Promise.all([wasm?.close(), plain?.close()])
  await devnet?.stop()
})

/** The same request to both daemons: the answers (result or error) must be equal. */
/** The random programs' contract, called, and the two it calls (which may call it back). */
const MAIN = `0x${'a1'.repeat(20)}`
const H1 = `0x${'b1'.repeat(20)}`
const H2 = `0x${'b2'.repeat(20)}`

/** State overrides putting random programs (drawn from `r`) at MAIN, H1 and H2. */
function randomOverrides(r: ReturnType<typeof createRandom>) {
  return {
    [MAIN]: {
      code: `0x${randomProgram(r, { callees: [H1, H2, MAIN], length: 4 + r.below(20) })}`,
      balance: '0x1000',
      state: { [`0x${'0'.repeat(63)}1`]: `0x${'0'.repeat(63)}5` },
    },
    [H1]: { code: `0x${randomProgram(r, { callees: [], length: 2 + r.below(10), callBack: r.chance(0.4) })}` },
    [H2]: { code: `0x${randomProgram(r, { callees: [], length: 2 + r.below(10) })}` },
  }
}

async function same(method: string, params: unknown[]) {
  const [a, b] = await Promise.all([rpc(wasm.url, method, params), rpc(plain.url, method, params)])
  expect(a, `${method} ${JSON.stringify(params).slice(0, 300)}`).toEqual(b)
  return b
}

const counters = () => wasm.engine.wasm!.counters

describe('engine: wasm answers as engine: ethereumjs', () => {
  it('traces every devnet transaction the same (callTracer, prestateTracer, diff mode, trace_replayTransaction)', async () => {
    const frames = counters().frames
    const hostOps = [...counters().hostOps]
    for (const tx of devnet.transactions) {
      await same('debug_traceTransaction', [tx.hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }])
      await same('debug_traceTransaction', [tx.hash, { tracer: 'prestateTracer' }])
      await same('debug_traceTransaction', [tx.hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }])
      await same('trace_replayTransaction', [tx.hash, ['trace', 'stateDiff']])
    }
    expect(counters().frames - frames).toBeGreaterThan(devnet.transactions.length)
    expect(counters().fallbacks).toEqual({ stepListeners: 0, eof: 0, fork: 0, gas: 0, resumedPc: 0, profiler: 0 })
    // The wasm ran the jumps (the deadline's wrappers of JUMP/JUMPI are its own yields) and the
    // hashing: the host only their exceptional halts (RETURN is the host's under callTracer, which
    // observes it in init code).
    const host = (op: number) => counters().hostOps[op]! - hostOps[op]!
    expect(host(0x56) + host(0x57)).toBeLessThan(10)
    expect(host(0x20)).toBeLessThan(10)
  }, 240_000)

  it('replays every devnet transaction as eth_call and eth_estimateGas the same', async () => {
    const frames = counters().frames
    for (const { hash, blockNumber } of devnet.transactions) {
      const tx = (await rpc(devnet.anvil.url, 'eth_getTransactionByHash', [hash])).result
      const call = { from: tx.from, ...(tx.to ? { to: tx.to } : {}), data: tx.input, value: tx.value, gas: tx.gas }
      const block = `0x${(blockNumber - 1).toString(16)}`
      await same('eth_call', [call, block])
      const { gas: _, ...unbounded } = call
      await same('eth_estimateGas', [unbounded, block])
    }
    expect(counters().frames - frames).toBeGreaterThan(devnet.transactions.length)
  }, 240_000)

  it('runs seeded random programs the same (debug_traceCall with state overrides: callTracer and gas)', async () => {
    const { frames, hostSteps } = counters()
    const outcomes = new Map<string, number>()
    for (let seed = 1; seed <= 60; seed++) {
      const r = createRandom(seed * 7919)
      const overrides = randomOverrides(r)
      const gas = `0x${r.pick([80_000, 400_000, 2_000_000]).toString(16)}`
      const call = { from: DEV_ACCOUNT, to: MAIN, gas }
      const traced = await same('debug_traceCall', [
        call,
        'latest',
        { tracer: 'callTracer', tracerConfig: { withLog: true }, stateOverrides: overrides },
      ])
      const key = traced.result?.error ?? (traced.error ? 'rpc error' : 'success')
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1)
      await same('eth_call', [call, 'latest', overrides])
      await same('debug_traceCall', [
        call,
        'latest',
        { tracer: 'prestateTracer', tracerConfig: { diffMode: true }, stateOverrides: overrides },
      ])
      // Struct logs (stepped: the wasm returns to the host after each instruction, which reports it).
      if (seed % 4 === 0) await same('debug_traceCall', [call, 'latest', { stateOverrides: overrides }])
    }
    expect(outcomes.get('success')).toBeGreaterThan(10)
    expect(counters().frames - frames).toBeGreaterThan(120)
    expect(counters().hostSteps - hostSteps).toBeGreaterThan(500)
  }, 240_000)

  it('traces step by step the same, on the wasm: struct logs and JavaScript tracers (log.*, db mid-step, faults)', async () => {
    const { fallbacks } = counters()
    const stepped = counters().steppedFrames
    const direct = counters().directSteps
    const fellBack = { ...fallbacks }
    // The comparison is of answers, not of speed: ethereumjs's struct logs of a long random program
    // passed the default 5 s tracer timeout in a loaded CI run.
    const timeout = '120s'
    const full = { enableMemory: true, enableReturnData: true, timeout }
    // The steps the JavaScript tracer read (it answers, not an error).
    let steps = 0
    for (const tx of devnet.transactions) {
      await same('debug_traceTransaction', [tx.hash, full])
      await same('debug_traceTransaction', [tx.hash, { timeout }])
      const read = await same('debug_traceTransaction', [tx.hash, { tracer: STEP_READER, timeout }])
      steps += read.result[0]
      await same('debug_traceTransaction', [tx.hash, { tracer: 'callTracerLegacy', timeout }])
      await same('debug_traceTransaction', [tx.hash, { tracer: 'prestateTracerLegacy', timeout }])
    }
    for (let seed = 1; seed <= 40; seed++) {
      const r = createRandom(seed * 104729)
      const stateOverrides = randomOverrides(r)
      // Gas up to 200,000: a loop's later rounds repeat its first steps (600,000 made 14,000-step struct
      // logs with memory, the file's time tripled in CI).
      const call = { from: DEV_ACCOUNT, to: MAIN, gas: `0x${r.pick([40_000, 100_000, 200_000]).toString(16)}` }
      await same('debug_traceCall', [call, 'latest', { ...full, stateOverrides }])
      const read = await same('debug_traceCall', [call, 'latest', { tracer: STEP_READER, stateOverrides, timeout }])
      steps += read.result?.[0] ?? 0
    }
    expect(steps).toBeGreaterThan(5000)
    // Every frame of the struct logs ran on the wasm, stepped, none in ethereumjs's own interpreter (the
    // JavaScript tracers run on their thread's EVM, on the wasm engine too, whose counters are its own).
    expect(counters().fallbacks).toEqual(fellBack)
    expect(counters().fallbacks.stepListeners).toBe(0)
    // At least a frame for each struct-log trace: two per devnet transaction, one per program.
    expect(counters().steppedFrames - stepped).toBeGreaterThanOrEqual(devnet.transactions.length * 2 + 40)
    // The struct logs' steps of wasm instructions went to the tracing adapter directly, not as ethereumjs's events.
    expect(counters().directSteps - direct).toBeGreaterThan(5000)
  }, 300_000)
})

/**
 * A JavaScript tracer reading everything a step gives (op, pc, gas, cost, refund, depth, the stack's
 * top, memory, the contract, db at the step) and the faults, folded into a hash and a count (the
 * steps of a long run would make a long answer).
 */
const STEP_READER = `{ h: 0, n: 0, faults: [],
  mix: function(text) { for (var i = 0; i < text.length; i++) this.h = (this.h * 31 + text.charCodeAt(i)) % 2147483647 },
  step: function(log, db) {
    this.n++
    var stack = log.stack.length() > 0 ? log.stack.peek(0).toString(16) + ',' + log.stack.length() : '-'
    var memory = log.memory.length() + ',' + (log.memory.length() >= 32 ? toHex(log.memory.slice(0, 32)) : '')
    var contract = log.contract
    var address = contract.getAddress()
    var state = ''
    if (log.op.toString() === 'SLOAD' || log.op.toString() === 'SSTORE') state = db.getState(address, toWord(log.stack.peek(0).toString(16))).toString()
    this.mix([log.op.toString(), log.op.toNumber(), log.getPC(), log.getGas(), log.getCost(), log.getRefund(), log.getDepth(),
      stack, memory, toHex(address), toHex(contract.getCaller()), contract.getValue().toString(), contract.getInput().length,
      db.getBalance(address).toString(), db.getNonce(address), db.getCode(address).length, state, log.getError() || ''].join('|'))
  },
  fault: function(log) { this.faults.push([log.getPC(), log.op.toString(), log.getError() || '']) },
  result: function() { return [this.n, this.h, this.faults] } }`
