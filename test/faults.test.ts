import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeCall } from '../src/node/devnet/abi.js'
import { type Devnet, startDevnet } from '../src/node/devnet/startDevnet.js'
import { createProxy } from './src/createProxy.js'
import { rpcResult } from './src/rpc.js'
import { timedRpc } from './src/timedRpc.js'
import {
  type CaseReport,
  FAULT_KINDS,
  type FaultKind,
  type FaultScenario,
  type Reference,
  measureReference,
  runFaultCase,
  runPool,
} from './src/runFaultCase.js'

// The fault matrix (issue 12: never down, never wrong, never open). A cold debug_traceCall needs a
// header, proofs, code and storage from the upstream: N calls when nothing fails. For every k in 1..N
// and every kind of upstream trouble, the k-th call fails once — the HTTP request carrying it answers
// 500 / 429 / truncated JSON, is reset, or hangs; or only that call gets a JSON-RPC error — and the
// server must answer the unfaulted result or a clear JSON-RPC error within the deadline (the EVM
// timeout plus 2 s), go on serving, and the process must not see an unhandled rejection.
// Every case runs on its own edgetrace instance (caches are per instance) behind its own proxy, so
// cases can run side by side; the hanging ones do.

const EVM_TIMEOUT_MS = 3000
const DEADLINE_MS = EVM_TIMEOUT_MS + 2000

let devnet: Devnet
let scenario: FaultScenario
let reference: Reference
const reports: CaseReport[] = []

/** Process-level failures: with no listener, either would end the edgetrace process. */
const processErrors: { event: string; during: string[]; reason: string }[] = []
const active = new Set<string>()
const onUnhandledRejection = (reason: unknown) =>
  processErrors.push({
    event: 'unhandledRejection',
    during: [...active],
    reason: reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason),
  })
const onUncaughtException = (err: Error) =>
  processErrors.push({ event: 'uncaughtException', during: [...active], reason: `${err.name}: ${err.message}` })

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandledRejection)
  process.on('uncaughtException', onUncaughtException)
  devnet = await startDevnet()
  const head = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', ['latest', false])
  const previous = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', [
    `0x${(BigInt(head.number) - 1n).toString(16)}`,
    false,
  ])
  const [alice] = devnet.accounts as [`0x${string}`]
  // Scenarios.pull → Token.transferFrom, transfer, balanceOf: two contracts' code and storage.
  const call = {
    from: alice,
    to: devnet.contracts.Scenarios,
    data: encodeCall('pull(address,address,uint256)', [devnet.contracts.Token!, alice, 1n]),
  }
  scenario = {
    node: devnet.anvil.url,
    engine: { evmTimeoutMs: EVM_TIMEOUT_MS },
    api: ['eth', 'debug', 'trace'],
    trace: { method: 'debug_traceCall', params: [call, head.number, { tracer: 'callTracer' }] },
    second: {
      method: 'debug_traceCall',
      params: [call, previous.number, { tracer: 'callTracer' }],
      blockMarkers: [`"${previous.number}"`, previous.hash],
    },
    deadlineMs: DEADLINE_MS,
  }
  reference = await measureReference(scenario)
})

afterAll(async () => {
  printMatrix()
  // Late rejections (a hung request given up after its case ended) still count: give them a moment.
  await new Promise((resolve) => setTimeout(resolve, 500))
  process.off('unhandledRejection', onUnhandledRejection)
  process.off('uncaughtException', onUncaughtException)
  await devnet?.stop()
})

function printMatrix() {
  if (!reference || reports.length === 0) return
  const kinds = FAULT_KINDS.filter((kind) => reports.some((r) => r.kind === kind.name))
  const cell = (r: CaseReport | undefined) => {
    if (!r) return '-'
    const crashed = r.problems.some((p) => /^(unhandledRejection|uncaughtException)/.test(p))
    const mark = r.problems.length === 0 ? 'ok' : crashed ? 'CRASH' : 'FAIL'
    const what =
      r.outcome === 'result'
        ? 'result'
        : r.outcome.startsWith('error')
          ? `err ${r.outcome.split(' ')[1]}`
          : r.outcome.split(' ')[0]
    return `${mark} ${what}`
  }
  const lines = [
    `fault matrix: ${reference.calls.length} upstream calls, deadline ${DEADLINE_MS} ms`,
    ['k', 'call (request)', ...kinds.map((k) => k.label)].join(' | '),
    ...reference.calls.map((c, i) =>
      [
        String(i + 1),
        `${c.method} (#${c.request - reference.calls[0]!.request + 1})`,
        ...kinds.map((kind) => cell(reports.find((r) => r.kind === kind.name && r.k === i + 1))),
      ].join(' | '),
    ),
    '',
    ...reports
      .filter((r) => r.problems.length > 0)
      .map((r) => `FAIL ${r.kind}, k=${r.k} (${r.call}): ${r.outcome} in ${r.ms} ms — ${r.problems.join('; ')}`),
  ]
  console.log(lines.join('\n'))
}

async function runKind(kind: FaultKind): Promise<CaseReport[]> {
  const ks = reference.calls.map((_, i) => i + 1)
  const out = await runPool(
    ks.map((k) => async () => {
      const label = `${kind.name} k=${k}`
      active.add(label)
      try {
        return await runFaultCase(scenario, reference, kind, k)
      } finally {
        // Rejections surface a tick or two after the answer; keep the case named for them.
        await new Promise((resolve) => setTimeout(resolve, 50))
        active.delete(label)
      }
    }),
    kind.slow ? ks.length : 1,
  )
  // A process-level error while a case ran is that case's failure (cases run side by side share it).
  for (const report of out) {
    for (const e of processErrors.filter((e) => e.during.includes(`${kind.name} k=${report.k}`))) {
      report.problems.push(
        `${e.event} while it ran${e.during.length > 1 ? ` (with ${e.during.length - 1} other cases)` : ''}: ${e.reason.split('\n')[0]}`,
      )
    }
  }
  reports.push(...out)
  return out
}

function failures(out: CaseReport[]): string[] {
  return out
    .filter((r) => r.problems.length > 0)
    .map((r) => `k=${r.k} (${r.call}): ${r.outcome} in ${r.ms} ms — ${r.problems.join('; ')}`)
}

describe('the fault proxy', () => {
  const batch = [
    { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
    { jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] },
  ]

  it('answers one call of a batch with a JSON-RPC error and forwards the others', async () => {
    const proxy = await createProxy(devnet.anvil.url, {
      callError: (c) => (c.index === 2 ? { code: -32005, message: 'rate limit exceeded' } : undefined),
    })
    const answer = await timedRpc(proxy.url, batch, 5000)
    expect(answer.kind === 'answer' && answer.json).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x7a69' },
      { jsonrpc: '2.0', id: 2, error: { code: -32005, message: 'rate limit exceeded' } },
    ])
    expect(proxy.log.map((c) => [c.index, c.request, c.method])).toEqual([
      [1, 1, 'eth_chainId'],
      [2, 1, 'eth_blockNumber'],
    ])
    await proxy.stop()
  })

  it('truncates an answer, resets a connection, and holds a request open until the client gives up', async () => {
    const decisions = ['truncate', 'drop', 'hang'] as const
    const proxy = await createProxy(devnet.anvil.url, { onRequest: ({ count }) => decisions[count - 1] })
    const truncated = await timedRpc(proxy.url, batch, 5000)
    expect(
      truncated.kind === 'answer' &&
        truncated.status === 200 &&
        truncated.json === undefined &&
        truncated.text.startsWith('[{"jsonrpc"'),
    ).toBe(true)
    expect((await timedRpc(proxy.url, batch, 5000)).kind).toBe('failed')
    const hung = await timedRpc(proxy.url, batch, 300)
    expect(hung.kind).toBe('timeout')
    expect((await timedRpc(proxy.url, batch, 5000)).kind).toBe('answer')
    await proxy.stop()
  })
})

describe('fault matrix: a cold debug_traceCall with one upstream call failed', () => {
  it('unfaulted: answers, with header, proofs, code and storage fetched from the upstream', () => {
    const methods = new Set(reference.calls.map((c) => c.method))
    for (const m of ['eth_getBlockByNumber', 'eth_getProof', 'eth_getCode']) expect(methods, m).toContain(m)
    expect(
      reference.calls.some((c) => c.method === 'eth_getProof' && (c.params[1] as unknown[]).length > 0),
      'a storage proof',
    ).toBe(true)
    expect((reference.result as { calls?: unknown[] }).calls?.length).toBeGreaterThan(0)
    console.log(
      `unfaulted: ${reference.calls.map((c, i) => `${i + 1}. ${c.method} (request ${c.request - reference.calls[0]!.request + 1})`).join(', ')}`,
    )
  })

  for (const kind of FAULT_KINDS.filter((k) => !k.slow)) {
    it(`${kind.name}: the result or a clear error within the deadline, and serving afterwards`, async () => {
      const out = await runKind(kind)
      expect(failures(out)).toEqual([])
    }, 120_000)
  }

  // Each of these may hold a request up to the deadline three times: all cases at once.
  for (const kind of FAULT_KINDS.filter((k) => k.slow)) {
    it.concurrent(`${kind.name}: the result or a clear error within the deadline, and serving afterwards`, async () => {
      const out = await runKind(kind)
      expect(failures(out)).toEqual([])
    }, 120_000)
  }

  it('no unhandled rejection or uncaught exception in the whole matrix', async () => {
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(processErrors).toEqual([])
  })
})
