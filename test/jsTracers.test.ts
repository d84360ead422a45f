import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../src/node/devnet/startDevnet.js'
import { parseCliArgs } from '../src/node/parseCliArgs.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { rpc, rpcResult } from './src/rpc.js'

// geth's JavaScript tracers, differential against anvil (which runs them itself): tracers written
// for these tests, on every devnet transaction. edgetrace runs them on a hardened worker thread.
// anvil's documented deviations, left out of the comparison: its frame errors are revm's names
// (StateChangeDuringStaticCall for geth's "write protection"), a STATICCALL frame's getValue() is 0
// where geth's is undefined, memory.getUint() gives bytes where geth gives a bigInt, getCost() is the
// cost of the frame's previous op (0 at a frame's first op; after a call, what the call spent net:
// measured on every devnet transaction, equal to ours shifted by one step within each frame except
// after CALL-family ops) — gas per op is checked against the struct logger instead — db.getState()
// reads the state before the transaction where geth reads the current one, ctx.gasPrice is the
// effective gas price where geth's is the effective tip (checked on its own below), ctx.intrinsicGas
// is 0, and fault() is never called; a reverted CREATE frame has no exit error, and an op refused
// before it ran (SSTORE's reentrancy sentry) no log.getError() — errors are checked against the
// struct logger instead; getRefund() is always 0 (geth's is the refund counter, as the struct
// logger's refund, which the geth corpus checks).
const TRACERS: Record<string, string> = {
  opcodeCounter: `{
    count: 0, ops: {},
    step: function(log) { this.count++; var op = log.op.toString(); this.ops[op] = (this.ops[op] || 0) + 1 },
    fault: function() {},
    result: function() { return { count: this.count, ops: this.ops } }
  }`,
  sstoreWatcher: `{
    writes: [],
    step: function(log) {
      if (log.op.toString() !== 'SSTORE') return
      this.writes.push({ pc: log.getPC(), address: toHex(log.contract.getAddress()),
        slot: log.stack.peek(0).toString(16), value: log.stack.peek(1).toString(16) })
    },
    fault: function() {},
    result: function() { return this.writes }
  }`,
  callGraph: `{
    calls: [], depth: 0,
    enter: function(frame) {
      this.calls.push({ type: frame.getType(), from: toHex(frame.getFrom()), to: toHex(frame.getTo()),
        input: toHex(frame.getInput()).slice(0, 10),
        value: frame.getType() === 'STATICCALL' ? 'static' : frame.getValue().toString(),
        depth: ++this.depth })
    },
    exit: function(res) { this.calls.push({ exit: this.depth--, output: toHex(res.getOutput()).length }) },
    fault: function() {},
    result: function(ctx) { return { type: ctx.type, calls: this.calls, failed: ctx.error !== undefined, output: toHex(ctx.output) } }
  }`,
  readsDb: `{
    reads: [], written: {},
    step: function(log, db) {
      var op = log.op.toString()
      var key = log.stack.length() > 0 ? toHex(log.contract.getAddress()) + ':' + log.stack.peek(0).toString(16) : ''
      if (op === 'SSTORE') { this.written[key] = true; return }
      if (op !== 'SLOAD' || this.written[key]) return
      this.reads.push(toHex(db.getState(log.contract.getAddress(), toWord(log.stack.peek(0).toString(16)))))
    },
    fault: function() {},
    result: function(ctx, db) {
      return { reads: this.reads, nonce: db.getNonce(ctx.from), exists: db.exists(ctx.to),
        code: toHex(db.getCode(ctx.to)).length, balance: db.getBalance(ctx.to).toString() }
    }
  }`,
  everyAccessor: `{
    rows: [],
    step: function(log) {
      if (this.rows.length >= 400) return
      var m = log.memory.length()
      this.rows.push([log.getPC(), log.getGas(), log.getDepth(),
        log.op.toNumber(), log.op.isPush(), log.stack.length(), log.stack.length() > 0 ? log.stack.peek(0).toString(16) : null,
        m, m >= 32 ? toHex(log.memory.slice(0, 32)) : null,
        toHex(log.contract.getCaller()), toHex(log.contract.getAddress()), log.contract.getValue().toString(),
        log.contract.getInput().length])
    },
    fault: function() {},
    result: function(ctx) { return { rows: this.rows, gas: ctx.gas, value: ctx.value.toString(),
      block: ctx.block, gasUsed: ctx.gasUsed } }
  }`,
  addresses: `{
    step: function() {},
    fault: function() {},
    result: function(ctx) {
      return { create: toHex(toContract(ctx.from, 7)), create2: toHex(toContract2(ctx.from, '0x1234', ctx.input)),
        word: toHex(toWord('0xabcd')), address: toHex(toAddress('0x1234')), ecrecover: isPrecompiled('0x01'),
        notPrecompile: isPrecompiled(ctx.from), part: ctx.input.length >= 4 ? toHex(slice(ctx.input, 0, 4)) : null }
    }
  }`,
}

describe('JavaScript tracers (differential against anvil)', () => {
  let devnet: Devnet
  let edge: RunningEdgetrace
  beforeAll(async () => {
    devnet = await startDevnet()
    edge = await startEdgetrace({
      upstream: devnet.anvil.url,
      port: 0,
      hardfork: 'prague',
      api: ['eth', 'debug'],
      workers: { threads: 1, warm: true },
      engine: { jsTracerMemoryMb: 256 },
    })
  }, 120_000)
  afterAll(async () => {
    await edge?.close()
    await devnet?.stop()
  })

  for (const [name, tracer] of Object.entries(TRACERS)) {
    it(`${name}: equal to anvil's on every devnet transaction`, async () => {
      for (const tx of devnet.transactions) {
        // anvil shows a SELFDESTRUCT's frame as a copy of the CALL around it (geth: SELFDESTRUCT, checked below).
        if (name === 'callGraph' && tx.label.includes('SELFDESTRUCT')) continue
        const want = await rpc(devnet.anvil.url, 'debug_traceTransaction', [tx.hash, { tracer }])
        const got = await rpc(edge.url, 'debug_traceTransaction', [tx.hash, { tracer }])
        expect(got.error, `${tx.label}`).toBeUndefined()
        expect(got.result, `${tx.label}`).toEqual(want.result)
      }
    }, 120_000)
  }

  it('log.getCost() per op as the struct logger’s gasCost (anvil gives no struct logs without --steps-tracing, and its own getCost lags a step); memory.getUint as the bytes memory.slice gives', async () => {
    const tracer = `{ gas: {}, uints: [],
      step: function(log) {
        var op = log.op.toString(); this.gas[op] = (this.gas[op] || 0) + log.getCost()
        if (log.memory.length() >= 64 && this.uints.length < 50)
          this.uints.push([log.memory.getUint(32).toString(16), bigInt(toHex(log.memory.slice(32, 64)).slice(2), 16).toString(16)])
      },
      fault: function() {}, result: function() { return { gas: this.gas, uints: this.uints } } }`
    for (const tx of devnet.transactions) {
      const logs = (await rpcResult(edge.url, 'debug_traceTransaction', [tx.hash, {}])) as {
        structLogs: { op: string; gasCost: number }[]
      }
      const want: Record<string, number> = {}
      for (const l of logs.structLogs) want[l.op] = (want[l.op] ?? 0) + l.gasCost
      const got = (await rpcResult(edge.url, 'debug_traceTransaction', [tx.hash, { tracer }])) as {
        gas: Record<string, number>
        uints: [string, string][]
      }
      expect(got.gas, tx.label).toEqual(want)
      for (const [uint, bytes] of got.uints) expect(uint).toBe(bytes)
    }
  }, 120_000)

  it('db answers the state as it is now: a slot read after a write in the same transaction gives the written value, as SLOAD does', async () => {
    const tracer = `{ pending: null, checks: [],
      step: function(log, db) {
        if (this.pending) { this.checks.push(this.pending === log.stack.peek(0).toString(16)); this.pending = null }
        if (log.op.toString() === 'SLOAD')
          this.pending = bigInt(toHex(db.getState(log.contract.getAddress(), toWord(log.stack.peek(0).toString(16)))).slice(2), 16).toString(16)
      },
      fault: function() {}, result: function() { return this.checks } }`
    for (const tx of devnet.transactions) {
      const checks = (await rpcResult(edge.url, 'debug_traceTransaction', [tx.hash, { tracer }])) as boolean[]
      expect(checks.every(Boolean), tx.label).toBe(true)
    }
  }, 120_000)

  it('db.getState() at an SSTORE’s step reads the slot before the write, as geth’s step precedes the op: the value the transaction last wrote there, else the one before it (eth_getStorageAt at the parent block)', async () => {
    const tracer = `{ writes: [],
      step: function(log, db) {
        if (log.op.toString() !== 'SSTORE') return
        var address = log.contract.getAddress(), slot = toWord(log.stack.peek(0).toString(16))
        this.writes.push([toHex(address), toHex(slot), toHex(db.getState(address, slot)), '0x' + log.stack.peek(1).toString(16)])
      },
      fault: function() {}, result: function() { return this.writes } }`
    let rewrites = 0
    for (const label of [
      'storage writes',
      'storage clears (refunds)',
      'nested token calls (transferFrom, transfer, balanceOf)',
    ]) {
      const tx = devnet.transactions.find((t) => t.label === label)!
      const writes = (await rpcResult(edge.url, 'debug_traceTransaction', [tx.hash, { tracer }])) as string[][]
      expect(writes.length, label).toBeGreaterThan(0)
      const last = new Map<string, bigint>()
      for (const [address, slot, read, value] of writes) {
        const key = `${address}:${slot}`
        const before =
          last.get(key) ??
          BigInt(
            await rpcResult(devnet.anvil.url, 'eth_getStorageAt', [
              address,
              slot,
              `0x${(tx.blockNumber - 1).toString(16)}`,
            ]),
          )
        if (last.has(key)) rewrites++
        expect(BigInt(read!), `${label} ${key}`).toBe(before)
        last.set(key, BigInt(value!))
      }
    }
    // fill(20) pushes 20 times: the array's length slot is written again and again in one transaction.
    expect(rewrites).toBeGreaterThan(10)
  }, 60_000)

  it('a tracer that fails on what its db could not answer yet (an account the transaction never touched) is run again once that state is loaded', async () => {
    const tx = devnet.transactions.find((t) => t.label.startsWith('token transfer'))!
    const untouched = devnet.contracts.BadJump!
    const tracer = `{ step: function() {}, fault: function() {},
      result: function(ctx, db) {
        var code = db.getCode(toAddress('${untouched}'))
        if (code.length === 0) throw new Error('no code at the contract')
        return { code: toHex(code), nonce: db.getNonce(toAddress('${untouched}')), exists: db.exists(toAddress('${untouched}')) }
      } }`
    const want = await rpcResult(devnet.anvil.url, 'debug_traceTransaction', [tx.hash, { tracer }])
    const got = await rpc(edge.url, 'debug_traceTransaction', [tx.hash, { tracer }])
    expect(got.error).toBeUndefined()
    expect(got.result).toEqual(want)
  }, 60_000)

  it('log.getError() and fault(): the step an op failed before running carries its error (as the struct logger’s), one that failed while running gets fault()', async () => {
    const tracer = `{ steps: [], step: function(log) { this.steps.push(log.getError() || null) },
      fault: function(log) { this.steps[this.steps.length - 1] = 'fault: ' + log.getError() },
      result: function() { return this.steps } }`
    for (const tx of devnet.transactions) {
      const logs = (await rpcResult(edge.url, 'debug_traceTransaction', [tx.hash, {}])) as {
        structLogs: { op: string; error?: string }[]
      }
      const got = (await rpcResult(edge.url, 'debug_traceTransaction', [tx.hash, { tracer }])) as (string | null)[]
      expect(got.length, tx.label).toBe(logs.structLogs.length)
      for (const [i, entry] of got.entries()) {
        const error = logs.structLogs[i]!.error ?? null
        if (entry?.startsWith('fault: '))
          expect([
            'REVERT',
            'INVALID',
            'JUMP',
            'JUMPI',
            'SSTORE',
            'CALL',
            'CREATE',
            'CREATE2',
            'RETURNDATACOPY',
            'SELFDESTRUCT',
            'LOG0',
            'LOG1',
            'LOG2',
            'LOG3',
            'LOG4',
            'STATICCALL',
            'TSTORE',
          ]).toContain(logs.structLogs[i]!.op)
        else expect(entry, `${tx.label} step ${i}`).toBe(error)
      }
      // geth calls fault() for a tracer without step() too (anvil never does): the same faults.
      const faults = `{ faults: [], fault: function(log) { this.faults.push([log.op.toString(), log.getDepth(), log.getError()]) },
        result: function() { return this.faults } }`
      const withSteps = faults.replace('faults: [],', 'faults: [], step: function() {},')
      const alone = await rpcResult(edge.url, 'debug_traceTransaction', [tx.hash, { tracer: faults }])
      expect(alone, tx.label).toEqual(
        await rpcResult(edge.url, 'debug_traceTransaction', [tx.hash, { tracer: withSteps }]),
      )
      expect((alone as unknown[]).length, tx.label).toBe(got.filter((entry) => entry?.startsWith('fault: ')).length)
    }
  }, 120_000)

  it('a SELFDESTRUCT is a frame of its own, as geth enters it: from the contract to the beneficiary, no input, no gas, the balance moved', async () => {
    const tx = devnet.transactions.find((t) => t.label.includes('SELFDESTRUCT'))!
    const frames = (await rpcResult(edge.url, 'debug_traceTransaction', [tx.hash, { tracer: TRACERS.callGraph! }])) as {
      calls: { type?: string; from?: string; to?: string; input?: string }[]
    }
    const destruct = frames.calls.find((c) => c.type === 'SELFDESTRUCT')!
    expect(destruct).toMatchObject({ input: '0x', value: expect.any(String) })
    const callTracer = (await rpcResult(devnet.anvil.url, 'debug_traceTransaction', [
      tx.hash,
      { tracer: 'callTracer' },
    ])) as {
      calls?: { type: string; from: string; to: string; calls?: { type: string; from: string; to: string }[] }[]
    }
    const flat = (callTracer.calls ?? []).flatMap((c) => [c, ...(c.calls ?? [])])
    const want = flat.find((c) => c.type === 'SELFDESTRUCT')!
    expect({ from: destruct.from, to: destruct.to }).toEqual({ from: want.from, to: want.to })
  })

  it('beyond loopback, JavaScript tracers are off unless asked for (--rpc.jstracers); native tracers are served either way', async () => {
    const tx = devnet.transactions[0]!.hash
    const tracer = '{ fault: function() {}, result: function() { return 1 } }'
    for (const jsTracers of [undefined, true]) {
      const open = await startEdgetrace({
        upstream: devnet.anvil.url,
        host: '0.0.0.0',
        port: 0,
        hardfork: 'prague',
        api: ['eth', 'debug'],
        workers: { threads: 1 },
        ...(jsTracers ? { engine: { jsTracers } } : {}),
      })
      try {
        const url = open.url.replace('0.0.0.0', '127.0.0.1')
        const answer = await rpc(url, 'debug_traceTransaction', [tx, { tracer }])
        if (jsTracers) expect(answer.result).toBe(1)
        else
          expect(answer.error).toEqual({
            code: -32000,
            message:
              'JavaScript tracers are off on this listener: it listens beyond loopback (start it with --rpc.jstracers to serve them)',
          })
        expect((await rpc(url, 'debug_traceTransaction', [tx, { tracer: 'callTracer' }])).result).toBeDefined()
      } finally {
        await open.close()
      }
    }
    expect(parseCliArgs(['--rpc.jstracers'])).toMatchObject({ jsTracers: true })
    expect(parseCliArgs([]).jsTracers).toBeUndefined()
    expect(parseCliArgs(['--rpc.jstracers.memory', '1024'])).toMatchObject({ jsTracerMemoryMb: 1024 })
    expect(() => parseCliArgs(['--rpc.jstracers.memory', '8'])).toThrow('--rpc.jstracers.memory')
    expect(parseCliArgs([]).borSnapshotWalk).toBe(16_384)
    expect(parseCliArgs(['--bor.snapshotwalk', '100']).borSnapshotWalk).toBe(100)
  }, 60_000)

  it('ctx.intrinsicGas is what the transaction pays before code runs: 21000, its calldata, and 32000 more with an EIP-3860 word charge for a creation (anvil answers 0)', async () => {
    const tracer = `{ fault: function() {}, result: function(ctx) { return ctx.intrinsicGas } }`
    for (const tx of devnet.transactions) {
      const sent = await rpcResult(devnet.anvil.url, 'eth_getTransactionByHash', [tx.hash])
      if (sent.accessList?.length || sent.authorizationList?.length) continue
      const data = Buffer.from(sent.input.slice(2), 'hex')
      const zeros = data.filter((b) => b === 0).length
      const create = sent.to === null ? 32_000 + 2 * Math.ceil(data.length / 32) : 0
      const want = 21_000 + 4 * zeros + 16 * (data.length - zeros) + create
      expect(await rpcResult(edge.url, 'debug_traceTransaction', [tx.hash, { tracer }]), tx.label).toBe(want)
    }
  }, 60_000)

  it('ctx.gasPrice is the effective tip, as geth gives it (the receipt’s price less the base fee)', async () => {
    const tracer = `{ fault: function() {}, result: function(ctx) { return ctx.gasPrice.toString() } }`
    for (const tx of devnet.transactions) {
      const receipt = await rpcResult(devnet.anvil.url, 'eth_getTransactionReceipt', [tx.hash])
      const block = await rpcResult(devnet.anvil.url, 'eth_getBlockByHash', [receipt.blockHash, false])
      const tip = BigInt(receipt.effectiveGasPrice) - BigInt(block.baseFeePerGas ?? 0)
      expect(await rpcResult(edge.url, 'debug_traceTransaction', [tx.hash, { tracer }]), tx.label).toBe(tip.toString())
    }
  }, 60_000)

  it('setup(config) is given tracerConfig as JSON text; debug_traceCall and debug_traceBlockByNumber too', async () => {
    const tracer = `{ cfg: null, setup: function(c) { this.cfg = JSON.parse(c) }, step: function() {}, fault: function() {},
      result: function(ctx) { return { cfg: this.cfg, type: ctx.type } } }`
    const tx = devnet.transactions[0]!
    expect(await rpcResult(edge.url, 'debug_traceTransaction', [tx.hash, { tracer, tracerConfig: { a: 1 } }])).toEqual({
      cfg: { a: 1 },
      type: expect.any(String),
    })
    const call = { from: devnet.accounts[0], to: devnet.accounts[1], value: '0x1' }
    expect(await rpcResult(edge.url, 'debug_traceCall', [call, 'latest', { tracer }])).toEqual({
      cfg: {},
      type: 'CALL',
    })
    const block = await rpcResult(edge.url, 'debug_traceBlockByNumber', ['0x2', { tracer }])
    expect(block).toEqual(await rpcResult(devnet.anvil.url, 'debug_traceBlockByNumber', ['0x2', { tracer }]))
  })

  it('debug_traceCallMany: a result per call per bundle, each db read of state no call touched loaded and the bundles run again', async () => {
    const untouched = devnet.contracts.Inspector!
    const tracer = `{ n: 0, step: function() { this.n++ }, fault: function() {},
      result: function(ctx, db) { return { steps: this.n, type: ctx.type, code: toHex(db.getCode(toAddress('${untouched}'))) } } }`
    const transfer = { from: devnet.accounts[0], to: devnet.accounts[1], value: '0x1' }
    const balanceOf = {
      from: devnet.accounts[0],
      to: devnet.contracts.Token,
      data: `0x70a08231${devnet.accounts[0]!.slice(2).padStart(64, '0')}`,
    }
    const many = (await rpcResult(edge.url, 'debug_traceCallMany', [
      [{ transactions: [transfer, balanceOf] }, { transactions: [balanceOf] }],
      { blockNumber: 'latest' },
      { tracer },
    ])) as { steps: number; type: string; code: string }[][]
    const code = await rpcResult(devnet.anvil.url, 'eth_getCode', [untouched, 'latest'])
    const single = (await rpcResult(edge.url, 'debug_traceCall', [balanceOf, 'latest', { tracer }])) as {
      steps: number
    }
    expect(single.steps).toBeGreaterThan(50)
    expect(many).toEqual([
      [
        { steps: 0, type: 'CALL', code },
        { steps: single.steps, type: 'CALL', code },
      ],
      [{ steps: single.steps, type: 'CALL', code }],
    ])
  })

  it('a tracer that keeps allocating ends with a clear error at its heap limit (--rpc.jstracers.memory), and the next tracer runs', async () => {
    const tx = devnet.transactions[0]!.hash
    const bomb = await rpc(edge.url, 'debug_traceTransaction', [
      tx,
      {
        tracer:
          '{ keep: [], step: function() { for (;;) this.keep.push(new Array(1 << 20).fill(7)) }, fault: function() {}, result: function() { return 1 } }',
        timeout: '30s',
      },
    ])
    expect(bomb.error).toEqual({
      code: -32000,
      message: "JavaScript tracer ran out of memory: its thread's heap is limited to 256 MB (--rpc.jstracers.memory)",
    })
    const tracer = TRACERS.opcodeCounter!
    expect(await rpcResult(edge.url, 'debug_traceTransaction', [tx, { tracer }])).toEqual(
      await rpcResult(devnet.anvil.url, 'debug_traceTransaction', [tx, { tracer }]),
    )
  }, 60_000)

  it("geth's built-in JavaScript tracers by name: callTracerLegacy and prestateTracerLegacy (their results are checked against geth's corpus in npm run conformance)", async () => {
    for (const tx of devnet.transactions.slice(0, 8)) {
      const legacy = (await rpcResult(edge.url, 'debug_traceTransaction', [
        tx.hash,
        { tracer: 'callTracerLegacy' },
      ])) as {
        from: string
        to: string
        gas: string
        gasUsed: string
        type: string
      }
      const native = (await rpcResult(edge.url, 'debug_traceTransaction', [tx.hash, { tracer: 'callTracer' }])) as {
        from: string
        to: string
        gas: string
        gasUsed: string
        type: string
      }
      expect(
        { from: legacy.from, to: legacy.to, gas: legacy.gas, gasUsed: legacy.gasUsed, type: legacy.type },
        tx.label,
      ).toEqual({ from: native.from, to: native.to, gas: native.gas, gasUsed: native.gasUsed, type: native.type })
      const prestate = (await rpcResult(edge.url, 'debug_traceTransaction', [
        tx.hash,
        { tracer: 'prestateTracerLegacy' },
      ])) as Record<string, { nonce: number }>
      const receipt = (await rpcResult(devnet.anvil.url, 'eth_getTransactionByHash', [tx.hash])) as {
        from: string
        nonce: string
      }
      expect(prestate[receipt.from]?.nonce, tx.label).toBe(Number(receipt.nonce))
    }
  }, 60_000)

  it('a tracer that throws in any of its callbacks, or returns what is not JSON, gets a clear error; the next request is served', async () => {
    const label = (l: string) => devnet.transactions.find((t) => t.label === l)!.hash
    const nested = label('recursion 5 deep')
    const reverted = label('revert with Error(string)')
    const noop = `fault: function() {}, result: function() { return 1 }`
    const cases: [string, string, string][] = [
      [nested, `{ setup: function() { throw new Error('in setup') }, ${noop} }`, 'Error: in setup'],
      [
        nested,
        `{ enter: function() { throw new TypeError('in enter') }, exit: function() {}, ${noop} }`,
        "TypeError: in enter    in server-side tracer function 'enter'",
      ],
      [
        nested,
        `{ enter: function() {}, exit: function() { throw new RangeError('in exit') }, ${noop} }`,
        "RangeError: in exit    in server-side tracer function 'exit'",
      ],
      [
        reverted,
        `{ fault: function() { throw new Error('in fault') }, result: function() { return 1 } }`,
        "Error: in fault    in server-side tracer function 'fault'",
      ],
      [
        nested,
        `{ fault: function() {}, result: function() { throw 'a string' } }`,
        "a string    in server-side tracer function 'result'",
      ],
      [
        nested,
        `{ fault: function() {}, result: function() { var o = {}; o.self = o; return o } }`,
        'tracer result is not JSON: TypeError: Converting circular structure to JSON',
      ],
      [
        nested,
        `{ fault: function() {}, result: function() { return { big: bigInt(1).value } } }`,
        'tracer result is not JSON: TypeError: Do not know how to serialize a BigInt',
      ],
      [
        nested,
        `{ fault: function() {}, result: function() { return { toJSON: function() { throw new Error('no') } } } }`,
        'tracer result is not JSON: Error: no',
      ],
    ]
    for (const [tx, tracer, message] of cases) {
      const answer = await rpc(edge.url, 'debug_traceTransaction', [tx, { tracer }])
      expect(answer.error?.code, tracer).toBe(-32000)
      expect(answer.error?.message, tracer).toContain(message)
    }
    expect(await rpcResult(edge.url, 'debug_traceTransaction', [nested, { tracer: `{ ${noop} }` }])).toBe(1)
  }, 60_000)

  it('a tracer that throws, or misuses a helper, ends with geth’s words; one that never returns is stopped at its timeout; the server serves on', async () => {
    const tx = devnet.transactions[devnet.transactions.length - 1]!.hash
    const throwing = await rpc(edge.url, 'debug_traceTransaction', [
      tx,
      {
        tracer: `{ step: function(log) { if (log.getPC() > 2) throw new Error('boom') }, fault: function() {}, result: function() { return 1 } }`,
      },
    ])
    expect(throwing.error).toEqual({ code: -32000, message: "Error: boom    in server-side tracer function 'step'" })
    const misuse = await rpc(edge.url, 'debug_traceTransaction', [
      tx,
      {
        tracer: `{ step: function(log) { try { log.stack.peek(9999) } catch (e) {} }, fault: function() {}, result: function() { return 1 } }`,
      },
    ])
    expect(misuse.error?.message).toMatch(
      /^tracer accessed out of bound stack: size \d+, index 9999 {4}in server-side tracer function 'step'$/,
    )
    expect(
      (await rpc(edge.url, 'debug_traceTransaction', [tx, { tracer: '{ result: function() {} }' }])).error?.message,
    ).toBe('trace object must expose a function fault()')
    const started = Date.now()
    const endless = await rpc(edge.url, 'debug_traceTransaction', [
      tx,
      {
        tracer: '{ step: function() { for (;;) {} }, fault: function() {}, result: function() { return 1 } }',
        timeout: '1s',
      },
    ])
    expect(endless.error).toEqual({ code: -32000, message: 'execution timeout' })
    expect(Date.now() - started).toBeLessThan(15_000)
    expect(await rpcResult(edge.url, 'eth_chainId', [])).toBe('0x7a69')
    const escape = await rpcResult(edge.url, 'debug_traceTransaction', [
      tx,
      {
        tracer: `{ fault: function() {}, result: function() { return [typeof process, typeof require, typeof fetch, Function('return typeof globalThis.process')()] } }`,
      },
    ])
    expect(escape).toEqual(['undefined', 'undefined', 'undefined', 'undefined'])
  }, 60_000)
})
