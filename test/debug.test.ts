import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeCall } from '../src/node/devnet/abi.js'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { txByLabel, withDevnetAndEdgetrace } from './src/devnet.js'
import { rpc, rpcResult } from './src/rpc.js'

// The debug_trace* methods end to end (HTTP server → verified state → recorder → renderer):
// parameters, overrides, bundles, limits, errors and streaming. Equality with a real node's traces
// is in test/differential/anvilTracers.test.ts.

let devnet: Devnet
let edge: RunningEdgetrace
let stop: () => Promise<void>

beforeAll(async () => {
  ;({ devnet, edge, stop } = await withDevnetAndEdgetrace({ api: ['eth', 'debug'] }))
}, 120_000)
afterAll(() => stop())

const word = (hex: string, i: number) => BigInt(`0x${hex.slice(2 + 64 * i, 2 + 64 * (i + 1))}`)

describe('debug_traceCall', () => {
  it('traces a call on the state of a block, with the callTracer and the struct logger', async () => {
    const call = { from: devnet.accounts[0], to: devnet.contracts.Scenarios, data: encodeCall('recurse(uint256)', [3]) }
    const frame = await rpcResult(edge.url, 'debug_traceCall', [call, 'latest', { tracer: 'callTracer' }])
    let depth = 0
    for (let f = frame; f.calls; f = f.calls[0]) depth++
    expect(depth).toBe(3)
    const logs = await rpcResult(edge.url, 'debug_traceCall', [call, 'latest'])
    expect(logs.failed).toBe(false)
    expect(logs.structLogs.length).toBeGreaterThan(100)
    expect(Math.max(...logs.structLogs.map((s: { depth: number }) => s.depth))).toBe(4)
    expect(logs.structLogs[0]).toEqual({ pc: 0, op: 'PUSH1', gas: expect.any(Number), gasCost: 3, depth: 1, stack: [] })
    const limited = await rpcResult(edge.url, 'debug_traceCall', [call, 'latest', { limit: 10 }])
    expect(limited.structLogs).toHaveLength(10)
    expect(limited.structLogs).toEqual(logs.structLogs.slice(0, 10))
  })

  it('applies stateOverrides and blockOverrides (geth), and prestate shows the overridden state', async () => {
    const rich = `0x${'77'.repeat(20)}`
    const call = { from: rich, to: devnet.contracts.Inspector, data: encodeCall('context()', []) }
    const frame = await rpcResult(edge.url, 'debug_traceCall', [
      call,
      'latest',
      {
        tracer: 'callTracer',
        stateOverrides: { [rich]: { balance: '0x1234' } },
        blockOverrides: { number: '0x999', time: '0x1000' },
      },
    ])
    expect(word(frame.output, 0)).toBe(0x999n)
    expect(word(frame.output, 1)).toBe(0x1000n)
    const pre = await rpcResult(edge.url, 'debug_traceCall', [
      call,
      'latest',
      { tracer: 'prestateTracer', stateOverrides: { [rich]: { balance: '0x1234' } } },
    ])
    expect(pre[rich].balance).toBe('0x1234')
  })

  it('runs on the state before transaction txIndex of the block', async () => {
    const inc = txByLabel(devnet, 'block of several: increment')
    const block = `0x${inc.blockNumber.toString(16)}`
    const index = Number((await rpcResult(devnet.anvil.url, 'eth_getTransactionByHash', [inc.hash])).transactionIndex)
    const read = { to: devnet.contracts.Scenarios, data: encodeCall('counter()', []) }
    const before = await rpcResult(edge.url, 'debug_traceCall', [read, block, { tracer: 'callTracer', txIndex: index }])
    const after = await rpcResult(edge.url, 'debug_traceCall', [read, block, { tracer: 'callTracer' }])
    expect(word(after.output, 0) - word(before.output, 0)).toBe(1n)
  })
})

describe('debug_traceCallMany', () => {
  it('runs bundles in order on one state; each bundle sees the ones before it and a later block', async () => {
    const inc = { from: devnet.accounts[0], to: devnet.contracts.Scenarios, data: encodeCall('increment()', []) }
    const ctx = { to: devnet.contracts.Inspector, data: encodeCall('context()', []) }
    const latest = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', ['latest', false])
    const result = await rpcResult(edge.url, 'debug_traceCallMany', [
      [{ transactions: [inc, inc, ctx] }, { transactions: [inc, ctx], blockOverride: { timestamp: '0x5000' } }],
      { blockNumber: 'latest', transactionIndex: -1 },
      { tracer: 'callTracer' },
    ])
    expect(result).toHaveLength(2)
    const [[a, b, c1], [d, c2]] = result
    expect(word(b.output, 0) - word(a.output, 0)).toBe(1n)
    expect(word(d.output, 0) - word(b.output, 0)).toBe(1n)
    expect(word(c1.output, 0)).toBe(BigInt(latest.number))
    expect(word(c2.output, 0)).toBe(BigInt(latest.number) + 1n)
    expect(word(c2.output, 1)).toBe(0x5000n)
    const logs = await rpcResult(edge.url, 'debug_traceCallMany', [
      [{ transactions: [inc] }],
      { blockNumber: 'latest' },
    ])
    expect(logs[0][0].structLogs.length).toBeGreaterThan(10)
    expect(
      (await rpc(edge.url, 'debug_traceCallMany', [[{ transactions: [] }], { blockNumber: 'latest' }])).error,
    ).toEqual({
      code: -32000,
      message: 'empty bundles',
    })
  })
})

describe('errors and limits', () => {
  it('answers bad input with clear errors and keeps serving', async () => {
    const tx = txByLabel(devnet, 'recursion 5 deep').hash
    const unknown = await rpc(edge.url, 'debug_traceTransaction', [tx, { tracer: 'fancyTracer' }])
    expect(unknown.error.code).toBe(-32000)
    expect(unknown.error.message).toContain('tracer not found: "fancyTracer"')
    expect(unknown.error.message).toContain(
      'callTracer, flatCallTracer, prestateTracer, 4byteTracer, noopTracer, muxTracer',
    )
    const js = await rpc(edge.url, 'debug_traceTransaction', [tx, { tracer: 'evmdisTracer' }])
    expect(js.error.message).toContain("evmdisTracer is one of geth's JavaScript tracers that edgetrace does not ship")
    const badConfig = await rpc(edge.url, 'debug_traceTransaction', [
      tx,
      { tracer: 'callTracer', tracerConfig: { onlyTopCall: 'yes' } },
    ])
    expect(badConfig.error).toEqual({
      code: -32602,
      message: 'invalid argument 1: invalid tracerConfig for callTracer: onlyTopCall must be a boolean',
    })
    const badTimeout = await rpc(edge.url, 'debug_traceTransaction', [tx, { timeout: 'soon' }])
    expect(badTimeout.error).toEqual({
      code: -32602,
      message: 'invalid argument 1: timeout: time: invalid duration "soon"',
    })
    expect((await rpc(edge.url, 'debug_traceTransaction', [`0x${'00'.repeat(31)}01`])).error).toEqual({
      code: -32000,
      message: 'transaction not found',
    })
    expect((await rpc(edge.url, 'debug_traceBlockByNumber', ['0x0'])).error).toEqual({
      code: -32000,
      message: 'genesis is not traceable',
    })
    expect((await rpc(edge.url, 'debug_traceBlockByNumber', ['3'])).error.code).toBe(-32602)
    const missing = `0x${'00'.repeat(31)}01`
    expect((await rpc(edge.url, 'debug_traceBlockByHash', [missing])).error).toEqual({
      code: -32000,
      message: `block ${missing} not found`,
    })
    expect(await rpcResult(edge.url, 'debug_traceTransaction', [tx, { tracer: 'noopTracer' }])).toEqual({})
  })

  it('stops a trace past its timeout with "execution timeout"', async () => {
    const tx = txByLabel(devnet, 'fill the Inspector').hash
    for (const config of [{ timeout: '1ns' }, { timeout: '1ns', tracer: 'callTracer' }]) {
      expect((await rpc(edge.url, 'debug_traceTransaction', [tx, config])).error).toEqual({
        code: -32000,
        message: 'execution timeout',
      })
    }
    expect(
      (await rpc(edge.url, 'debug_traceTransaction', [tx, { timeout: '30s', tracer: 'callTracer' }])).result.type,
    ).toBe('CALL')
  })

  it('serves debug only when enabled', async () => {
    // A server of the default namespaces on the same devnet (a devnet of its own cost 0.4-1 s more).
    const plain = await startEdgetrace({ upstream: devnet.anvil.url, port: 0, hardfork: 'prague' })
    try {
      const r = await rpc(plain.url, 'debug_traceTransaction', [`0x${'00'.repeat(32)}`])
      expect(r.error.code).toBe(-32601)
      expect(r.error.message).toContain('add debug to --http.api')
    } finally {
      await plain.close()
    }
  })
})

describe('streaming', () => {
  it('sends big struct-log traces chunked as they are produced; the text is the same as a whole one', async () => {
    const tx = txByLabel(devnet, 'fill the Inspector').hash
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'debug_traceTransaction',
      params: [tx, { enableMemory: true }],
    })
    const res = await fetch(edge.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect(res.headers.get('transfer-encoding')).toBe('chunked')
    expect(res.headers.get('content-length')).toBeNull()
    const streamed = await res.json()
    expect(streamed.id).toBe(7)
    const whole = await edge.handler.handleText(body)
    expect(streamed).toEqual(JSON.parse(whole!))
    expect(streamed.result.structLogs.length).toBeGreaterThan(1000)
    // A small answer still goes out whole.
    const small = await fetch(edge.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'debug_traceTransaction',
        params: [tx, { tracer: '4byteTracer' }],
      }),
    })
    expect(small.headers.get('content-length')).not.toBeNull()
  })
})
