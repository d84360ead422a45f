import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeCall } from '../src/node/devnet/abi.js'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { withDevnetAndEdgetrace } from './src/devnet.js'
import { rpc, rpcResult } from './src/rpc.js'

// The limits of the reference daemon — gas cap, EVM timeout, return data — each a clear error,
// after which the server goes on serving.

let devnet: Devnet
let edge: RunningEdgetrace

let stop: () => Promise<void>

beforeAll(async () => {
  ;({ devnet, edge, stop } = await withDevnetAndEdgetrace({ engine: { gasCap: 200_000n, returnDataLimit: 100 } }))
})
afterAll(() => stop())

describe('limits', () => {
  it('--rpc.gascap caps the gas of a call, asked for or not', async () => {
    const call = { to: devnet.contracts.Scenarios, data: encodeCall('fill(uint256)', [12]) }
    expect((await rpc(devnet.anvil.url, 'eth_call', [call])).error).toBeUndefined()
    expect((await rpc(edge.url, 'eth_call', [call])).error).toEqual({ code: -32000, message: 'out of gas' })
    expect((await rpc(edge.url, 'eth_call', [{ ...call, gas: '0x989680' }])).error).toEqual({
      code: -32000,
      message: 'out of gas',
    })
    const small = { to: devnet.contracts.Scenarios, data: encodeCall('fill(uint256)', [2]) }
    expect((await rpc(edge.url, 'eth_call', [small])).error).toBeUndefined()
  })

  it("--rpc.evmtimeout stops a long execution with geth's error", async () => {
    const slow = await startEdgetrace({
      upstream: devnet.anvil.url,
      port: 0,
      hardfork: 'prague',
      engine: { evmTimeoutMs: 1000 },
    })
    const call = { to: devnet.contracts.Scenarios, data: encodeCall('fill(uint256)', [1500]) }
    const started = Date.now()
    expect((await rpc(slow.url, 'eth_call', [call])).error).toEqual({
      code: -32000,
      message: 'execution aborted (timeout = 1s)',
    })
    expect(Date.now() - started).toBeLessThan(3000)
    expect(await rpcResult(slow.url, 'eth_chainId')).toBe('0x7a69')
    await slow.close()
  })

  // An endless loop (JUMPDEST PUSH1 0 JUMP) installed by a state override: only the deadline ends it.
  const LOOP = '0x5b600056'
  const looping = '0x00000000000000000000000000000000000000aa'

  it('--rpc.evmtimeout stops pure computation, untraced and traced, with no gas cap and no gas given', async () => {
    const slow = await startEdgetrace({
      upstream: devnet.anvil.url,
      port: 0,
      hardfork: 'prague',
      api: ['eth', 'debug', 'trace'],
      engine: { evmTimeoutMs: 1500, gasCap: 0n },
    })
    const call = { to: looping }
    const overrides = { [looping]: { code: LOOP } }
    for (const [method, params] of [
      ['eth_call', [call, 'latest', overrides]],
      // 10^11 gas: more than even the wasm engine (~200 M steps/s) can burn on the loop within the
      // timeout; at 10^9 it ran out of gas first ("gas required exceeds allowance").
      ['eth_estimateGas', [{ ...call, gas: '0x174876e800' }, 'latest', overrides]],
      ['debug_traceCall', [call, 'latest', { tracer: 'callTracer', stateOverrides: overrides, timeout: '1m' }]],
    ] as const) {
      const started = Date.now()
      const out = await rpc(slow.url, method, params as unknown as unknown[])
      const took = Date.now() - started
      expect(out.error, method).toEqual({ code: -32000, message: 'execution aborted (timeout = 1.5s)' })
      // The deadline holds (checked inside the interpreter); the slack is for set-up on a busy machine.
      expect(took, method).toBeLessThan(1500 * 1.1 + 1000)
    }
    await slow.close()
  })

  it('answers other clients while one computes', async () => {
    const slow = await startEdgetrace({
      upstream: devnet.anvil.url,
      port: 0,
      hardfork: 'prague',
      engine: { evmTimeoutMs: 2000, gasCap: 0n },
    })
    const heavy = rpc(slow.url, 'eth_call', [{ to: looping }, 'latest', { [looping]: { code: LOOP } }])
    let finished = false
    void heavy.then(() => (finished = true))
    await new Promise((resolve) => setTimeout(resolve, 200))
    // While the loop runs, other requests are answered: without yielding, none would be until it ended.
    let answeredDuring = 0
    while (!finished) {
      expect(await rpcResult(slow.url, 'eth_chainId')).toBe('0x7a69')
      if (!finished) answeredDuring++
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect((await heavy).error).toEqual({ code: -32000, message: 'execution aborted (timeout = 2s)' })
    expect(answeredDuring).toBeGreaterThan(10)
    await slow.close()
  })

  it('--rpc.returndata.limit refuses results over the limit', async () => {
    const returns = (n: number) => ({ data: `0x61${n.toString(16).padStart(4, '0')}6000f3` }) // PUSH2 n PUSH1 0 RETURN
    expect(await rpcResult(edge.url, 'eth_call', [returns(100)])).toBe(`0x${'00'.repeat(100)}`)
    expect((await rpc(edge.url, 'eth_call', [returns(101)])).error).toEqual({
      code: -32000,
      message: 'call returned result on length 101 exceeding --rpc.returndata.limit 100',
    })
  })
})
