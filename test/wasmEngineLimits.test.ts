// The wasm engine (issue 37) within the request's limits: a frame in WebAssembly never returns to the
// event loop by itself, so the wasm yields at jumps (every 300k gas); an endless loop must still end
// at --rpc.evmtimeout (2 s) and at a tracer's `timeout` (200 ms) with the same errors as engine ethereumjs, and the
// daemon must serve on afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { withDevnet } from './src/devnet.js'
import { rpc } from './src/rpc.js'

let devnet: Devnet
let wasm: RunningEdgetrace
let plain: RunningEdgetrace

// JUMPDEST PUSH1 0 JUMP: forever, 12 gas a round; 2^39 − 1 gas (under the wasm's 2^40 bound) lasts
// ~4.6e10 rounds, minutes even in WebAssembly.
const LOOPING = '0x00000000000000000000000000000000000000cc'
const endless = [{ to: LOOPING, gas: '0x7fffffffff' }, 'latest', { [LOOPING]: { code: '0x5b600056' } }]

beforeAll(async () => {
  devnet = await withDevnet()
  const options = {
    upstream: devnet.anvil.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'debug'],
  }
  // The tracer's 200 ms ends a trace well before the request's 2 s: a busy machine's state reads
  // before the run (counted by the request's deadline, not the tracer's) cannot swap the two.
  const limits = { evmTimeoutMs: 2000, gasCap: 2n ** 39n }
  ;[wasm, plain] = await Promise.all([
    startEdgetrace({ ...options, engine: { ...limits, engine: 'wasm' } }),
    startEdgetrace({ ...options, engine: { ...limits, engine: 'ethereumjs' } }),
  ])
}, 120_000)

afterAll(async () => {
  await Promise.all([wasm?.close(), plain?.close()])
  await devnet?.stop()
})

describe('engine: wasm within its limits', () => {
  it('an endless eth_call ends at --rpc.evmtimeout with engine ethereumjs’s error, then the daemon serves on', async () => {
    const frames = wasm.engine.wasm!.counters.frames
    const started = performance.now()
    const onWasm = await rpc(wasm.url, 'eth_call', endless)
    const tookMs = performance.now() - started
    expect(onWasm.error).toEqual((await rpc(plain.url, 'eth_call', endless)).error)
    expect(onWasm.error).toMatchObject({ message: expect.stringContaining('timeout') })
    expect(tookMs).toBeLessThan(10_000)
    expect(wasm.engine.wasm!.counters.frames).toBeGreaterThan(frames)
    const balance = await rpc(wasm.url, 'eth_getBalance', [devnet.accounts[0], 'latest'])
    expect(balance.result).toBe((await rpc(devnet.anvil.url, 'eth_getBalance', [devnet.accounts[0], 'latest'])).result)
  }, 60_000)

  it('an endless debug_traceCall (callTracer) ends at its tracer timeout as on engine ethereumjs', async () => {
    const frames = wasm.engine.wasm!.counters.frames
    const params = [endless[0], 'latest', { tracer: 'callTracer', timeout: '200ms', stateOverrides: endless[2] }]
    const onWasm = await rpc(wasm.url, 'debug_traceCall', params)
    expect(onWasm).toEqual(await rpc(plain.url, 'debug_traceCall', params))
    expect(onWasm.error).toEqual({ code: -32000, message: 'execution timeout' })
    expect(wasm.engine.wasm!.counters.frames).toBeGreaterThan(frames)
  }, 60_000)

  it('an endless debug_traceCall observed step by step (a JavaScript tracer) ends at its timeout as on engine ethereumjs', async () => {
    // The tracer runs on the JavaScript-tracer thread, whose EVM is on the wasm engine too, stepped
    // (its counters are that thread's: conformance's geth legacy tracer corpus counts its frames).
    const tracer = '{ n: 0, step: function() { this.n++ }, fault: function() {}, result: function() { return this.n } }'
    const params = [endless[0], 'latest', { tracer, timeout: '200ms', stateOverrides: endless[2] }]
    const onWasm = await rpc(wasm.url, 'debug_traceCall', params)
    expect(onWasm).toEqual(await rpc(plain.url, 'debug_traceCall', params))
    expect(onWasm.error).toMatchObject({ message: expect.stringContaining('timeout') })
  }, 60_000)
})
