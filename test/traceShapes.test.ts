import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { txByLabel, withDevnet } from './src/devnet.js'
import { rpcResult } from './src/rpc.js'
import { runCli } from './src/runCli.js'

/*
 * trace_* in the reference daemon's shapes (the default; ../shared/reference/erigon-rpc.md §1.1,
 * §1.3, §1.8) and in OpenEthereum's (--trace.compat), over the same devnet transactions: one server
 * of each kind in front of the same anvil.
 */

type Json = any

let devnet: Devnet
let reference: RunningEdgetrace
let compat: RunningEdgetrace

beforeAll(async () => {
  devnet = await withDevnet()
  const start = (traceCompat: boolean) =>
    startEdgetrace({
      upstream: devnet.anvil.url,
      port: 0,
      hardfork: 'prague',
      api: ['eth', 'debug', 'trace'],
      engine: { traceCompat },
    })
  reference = await start(false)
  compat = await start(true)
}, 120_000)
afterAll(async () => {
  await reference?.close()
  await compat?.close()
  await devnet?.stop()
})

const REVERT = '0x08c379a0' // Error(string)

describe('trace_* error strings and failed frames', () => {
  it("writes geth's error strings, result null on a failed frame, and keeps a reverted frame's result (default)", async () => {
    const oog = await rpcResult(reference.url, 'trace_transaction', [
      txByLabel(devnet, 'child out of gas, parent continues').hash,
    ])
    const failed = oog.find((t: Json) => t.error !== undefined)
    expect(failed.error).toBe('out of gas')
    expect('result' in failed).toBe(true)
    expect(failed.result).toBeNull()

    const badJump = await rpcResult(reference.url, 'trace_transaction', [
      txByLabel(devnet, 'bad jump in a child call').hash,
    ])
    expect(badJump.map((t: Json) => t.error).filter(Boolean)).toEqual(['invalid jump destination'])

    const invalid = await rpcResult(reference.url, 'trace_transaction', [txByLabel(devnet, 'INVALID opcode').hash])
    expect(invalid[0].error).toBe('invalid opcode: INVALID')
    expect(invalid[0].result).toBeNull()

    const reverted = await rpcResult(reference.url, 'trace_transaction', [
      txByLabel(devnet, 'revert with Error(string)').hash,
    ])
    expect(reverted[0].error).toBe('Reverted')
    expect(reverted[0].result.output.startsWith(REVERT)).toBe(true)
    expect(BigInt(reverted[0].result.gasUsed)).toBeGreaterThan(0n)
    expect('revertReason' in reverted[0]).toBe(false)
    // Fields in the reference's order: action, block fields, error, result, subtraces, …
    expect(Object.keys(reverted[0])).toEqual([
      'action',
      'blockHash',
      'blockNumber',
      'error',
      'result',
      'subtraces',
      'traceAddress',
      'transactionHash',
      'transactionPosition',
      'type',
    ])

    const staticWrite = await rpcResult(reference.url, 'trace_transaction', [
      txByLabel(devnet, 'STATICCALL, and a write in a static frame that fails').hash,
    ])
    expect(staticWrite.map((t: Json) => t.error).filter(Boolean)).toContain('write protection')
  })

  it('keeps the would-be address and the revert data of a create whose constructor reverts (default)', async () => {
    const traces = await rpcResult(reference.url, 'trace_transaction', [
      txByLabel(devnet, 'CREATE whose constructor reverts').hash,
    ])
    const create = traces.find((t: Json) => t.type === 'create')
    expect(create.error).toBe('Reverted')
    expect(Object.keys(create.result)).toEqual(['address', 'code', 'gasUsed'])
    expect(create.result.address).toMatch(/^0x[0-9a-f]{40}$/)
    expect(create.action.creationMethod).toBe('create')
  })

  it("writes OpenEthereum's labels, no result on a failed frame and the revert data as revertReason (--trace.compat)", async () => {
    const oog = await rpcResult(compat.url, 'trace_transaction', [
      txByLabel(devnet, 'child out of gas, parent continues').hash,
    ])
    const failed = oog.find((t: Json) => t.error !== undefined)
    expect(failed.error).toBe('Out of gas')
    expect('result' in failed).toBe(false)

    const badJump = await rpcResult(compat.url, 'trace_transaction', [
      txByLabel(devnet, 'bad jump in a child call').hash,
    ])
    expect(badJump.map((t: Json) => t.error).filter(Boolean)).toEqual(['Bad jump destination'])
    const invalid = await rpcResult(compat.url, 'trace_transaction', [txByLabel(devnet, 'INVALID opcode').hash])
    expect(invalid[0].error).toBe('Bad instruction')

    const reverted = await rpcResult(compat.url, 'trace_transaction', [
      txByLabel(devnet, 'revert with Error(string)').hash,
    ])
    expect(reverted[0].error).toBe('Reverted')
    expect('result' in reverted[0]).toBe(false)
    expect(reverted[0].revertReason.startsWith(REVERT)).toBe(true)
  })
})

describe('trace_replay* of a reverted transaction', () => {
  it('answers the revert data as output (default), "0x" and a revertReason (--trace.compat)', async () => {
    const tx = txByLabel(devnet, 'revert with Error(string)')
    const hash = tx.hash
    const ours = await rpcResult(reference.url, 'trace_replayTransaction', [hash, ['trace']])
    expect(ours.output.startsWith(REVERT)).toBe(true)
    expect('revertReason' in ours).toBe(false)
    // anvil, a real node, answers the same output (it has trace_replayBlockTransactions only).
    const block = `0x${tx.blockNumber.toString(16)}`
    const anvil = await rpcResult(devnet.anvil.url, 'trace_replayBlockTransactions', [block, ['trace']])
    expect(ours.output).toBe(anvil.find((r: Json) => r.transactionHash === hash).output)

    const old = await rpcResult(compat.url, 'trace_replayTransaction', [hash, ['trace']])
    expect(old.output).toBe('0x')
    expect(old.revertReason).toBe(ours.output)
  })
})

describe('vmTrace', () => {
  /** Every op of a VM trace with the path to it. */
  const flatten = (vm: Json, out: Json[] = []): Json[] => {
    for (const op of vm?.ops ?? []) {
      out.push(op)
      flatten(op.sub, out)
    }
    return out
  }

  it('names each op and gives its path, prefixed with the transaction index in a block replay (default)', async () => {
    const tx = txByLabel(devnet, 'recursion 5 deep')
    const block = `0x${tx.blockNumber.toString(16)}`
    const replays = await rpcResult(reference.url, 'trace_replayBlockTransactions', [block, ['vmTrace']])
    const index = replays.findIndex((r: Json) => r.transactionHash === tx.hash)
    const vm = replays[index].vmTrace
    expect(vm.ops[0]).toMatchObject({ op: 'PUSH1', idx: `${index}-0`, pc: 0 })
    expect(Object.keys(vm.ops[0])).toEqual(['cost', 'ex', 'pc', 'sub', 'op', 'idx'])
    const caller = vm.ops.findIndex((op: Json) => op.sub !== null)
    expect(caller).toBeGreaterThan(0)
    expect(vm.ops[caller].op).toMatch(/CALL$/)
    expect(vm.ops[caller].sub.ops[0].idx).toBe(`${index}-${caller}-0`)
    for (const [i, op] of vm.ops.entries()) expect(op.idx).toBe(`${index}-${i}`)
    expect(flatten(vm).every((op: Json) => typeof op.op === 'string' && /^\d+(-\d+)+$/.test(op.idx))).toBe(true)

    // trace_replayTransaction: the same prefix, the transaction's index in its block.
    const one = await rpcResult(reference.url, 'trace_replayTransaction', [tx.hash, ['vmTrace']])
    expect(one.vmTrace).toEqual(vm)
  })

  it('lists the INVALID op the reference lists, named as geth names it', async () => {
    const tx = txByLabel(devnet, 'INVALID opcode')
    const [ours, old] = await Promise.all([
      rpcResult(reference.url, 'trace_replayTransaction', [tx.hash, ['vmTrace']]),
      rpcResult(compat.url, 'trace_replayTransaction', [tx.hash, ['vmTrace']]),
    ])
    const last = ours.vmTrace.ops.at(-1)
    expect(last.op).toBe('INVALID')
    expect(ours.vmTrace.ops.length).toBe(old.vmTrace.ops.length + 1)
  })

  it('has no prefix for trace_call and the call index for trace_callMany; none of it with --trace.compat', async () => {
    const call = { to: devnet.contracts.Token, data: '0x18160ddd' }
    const single = await rpcResult(reference.url, 'trace_call', [call, ['vmTrace'], 'latest'])
    expect(single.vmTrace.ops[0].idx).toBe('0')
    const many = await rpcResult(reference.url, 'trace_callMany', [
      [
        [call, ['vmTrace']],
        [call, ['vmTrace']],
      ],
      'latest',
    ])
    expect(many.map((r: Json) => r.vmTrace.ops[1].idx)).toEqual(['0-1', '1-1'])
    const old = await rpcResult(compat.url, 'trace_call', [call, ['vmTrace'], 'latest'])
    expect(flatten(old.vmTrace).some((op: Json) => 'op' in op || 'idx' in op)).toBe(false)
    // Otherwise the same trace.
    const strip = (vm: Json): Json => ({
      ...vm,
      ops: vm.ops.map(({ op: _op, idx: _idx, sub, ...rest }: Json) => ({ ...rest, sub: sub && strip(sub) })),
    })
    expect(strip(single.vmTrace)).toEqual(old.vmTrace)
  })
})

describe("callTracer's errors", () => {
  it("gives a stack underflow with geth's figures", async () => {
    // Code that adds with one item on the stack: PUSH1 1, ADD.
    const target = '0x00000000000000000000000000000000000c0de1'
    const trace = await rpcResult(reference.url, 'debug_traceCall', [
      { to: target, gas: '0x30000' },
      'latest',
      { tracer: 'callTracer', stateOverrides: { [target]: { code: '0x600101' } } },
    ])
    expect(trace.error).toBe('stack underflow (1 <=> 2)')
    // The struct logger words the failing step the same way.
    const logs = await rpcResult(reference.url, 'debug_traceCall', [
      { to: target, gas: '0x30000' },
      'latest',
      { stateOverrides: { [target]: { code: '0x600101' } } },
    ])
    expect(logs.structLogs.at(-1).error).toBe(trace.error)
  })

  it('names an undefined opcode as geth does, in the struct logs and the callTracer', async () => {
    const target = '0x00000000000000000000000000000000000c0de2'
    const overrides = { stateOverrides: { [target]: { code: '0x0c' } } }
    const call = { to: target, gas: '0x30000' }
    const [logs, frame] = await Promise.all([
      rpcResult(reference.url, 'debug_traceCall', [call, 'latest', overrides]),
      rpcResult(reference.url, 'debug_traceCall', [call, 'latest', { tracer: 'callTracer', ...overrides }]),
    ])
    expect(logs.structLogs[0].op).toBe('opcode 0xc not defined')
    expect(frame.error).toBe('invalid opcode: opcode 0xc not defined')
  })
})

describe('trace_call with traceConfig overrides (the reference daemon takes stateOverrides and blockOverrides)', () => {
  it('runs the call on the overridden code and block', async () => {
    const target = '0x00000000000000000000000000000000000c0de3'
    const underflow = await rpcResult(reference.url, 'trace_call', [
      { to: target, gas: '0x30000' },
      ['trace'],
      'latest',
      { stateOverrides: { [target]: { code: '0x600101' } } },
    ])
    expect(underflow.trace[0].error).toBe('stack underflow (1 <=> 2)')
    expect(underflow.trace[0].result).toBeNull()
    // TIMESTAMP, returned as a word.
    const clock = await rpcResult(reference.url, 'trace_callMany', [
      [
        [{ to: target, gas: '0x30000' }, ['trace']],
        [{ to: target, gas: '0x30000' }, ['trace']],
      ],
      'latest',
      { stateOverrides: { [target]: { code: '0x4260005260206000f3' } }, blockOverrides: { time: '0x1234' } },
    ])
    expect(clock.map((r: Json) => BigInt(r.output))).toEqual([0x1234n, 0x1234n])
  })
})

describe('--trace.compat on the command line', () => {
  it("switches the server to OpenEthereum's shapes", async () => {
    const run = await runCli(
      [
        '--upstream',
        devnet.anvil.url,
        '--hardfork',
        'prague',
        '--http.port',
        '0',
        '--http.api',
        'eth,trace',
        '--trace.compat',
      ],
      /listening: +(http:\/\/\S+)/,
    )
    try {
      expect(run.output).toContain("traces:     trace_* in OpenEthereum's shapes (--trace.compat)")
      const url = /listening: +(http:\/\/\S+)/.exec(run.output)?.[1]
      expect(url).toBeDefined()
      const hash = txByLabel(devnet, 'revert with Error(string)').hash
      const [top] = await rpcResult(url!, 'trace_transaction', [hash])
      expect(top.revertReason.startsWith(REVERT)).toBe(true)
      expect('result' in top).toBe(false)
    } finally {
      run.kill()
    }
  })
})
