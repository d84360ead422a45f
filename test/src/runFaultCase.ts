import { isDeepStrictEqual } from 'node:util'
import type { EngineOptions } from '../../src/exec/createEngine.js'
import { startEdgetrace } from '../../src/node/startEdgetrace.js'
import { type Proxy, type ProxyHooks, type ProxyLoggedCall, type ProxyRpcError, createProxy } from './createProxy.js'
import { isJsonRpcErrorCode } from './fuzzRequests.js'
import { type TimedAnswer, timedRpc } from './timedRpc.js'

/** One way the upstream can fail a request: at the HTTP level (the whole request) or one JSON-RPC call. */
export type FaultKind = {
  name: string
  /** Short column label for the report table. */
  label: string
  /** Expected to take long against a server without deadlines: run these cases concurrently. */
  slow?: boolean
  http?: NonNullable<ReturnType<NonNullable<ProxyHooks['onRequest']>>>
  rpcError?: ProxyRpcError
}

export const FAULT_KINDS: readonly FaultKind[] = [
  {
    name: 'HTTP 500',
    label: '500',
    http: { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' },
  },
  {
    name: 'HTTP 429 without Retry-After',
    label: '429',
    http: { status: 429, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"rate limit exceeded"}}' },
  },
  {
    name: 'HTTP 429 with Retry-After: 1',
    label: '429 RA1',
    http: {
      status: 429,
      headers: { 'retry-after': '1' },
      body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"rate limit exceeded"}}',
    },
  },
  {
    name: 'JSON-RPC error -32005 for that call only',
    label: 'rpc err',
    rpcError: { code: -32005, message: 'rate limit exceeded' },
  },
  { name: 'truncated JSON body', label: 'trunc', http: 'truncate' },
  { name: 'connection reset', label: 'reset', http: 'drop' },
  {
    name: 'HTTP 429 with Retry-After: 120 (beyond the deadline)',
    label: '429 RA120',
    slow: true,
    http: {
      status: 429,
      headers: { 'retry-after': '120' },
      body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"rate limit exceeded"}}',
    },
  },
  { name: 'hang (never answers)', label: 'hang', slow: true, http: 'hang' },
]

export type FaultScenario = {
  /** The real node (anvil). */
  node: string
  engine: Partial<EngineOptions>
  api: string[]
  /** The request faulted, at a block nothing has cached yet. */
  trace: { method: string; params: unknown[] }
  /** The same call at another block: cold again after the fault, to see the server recovered. */
  second: { method: string; params: unknown[]; blockMarkers: string[] }
  deadlineMs: number
}

export type Reference = {
  result: unknown
  /** The calls the cold trace makes, in order (after the server's start). */
  calls: ProxyLoggedCall[]
  secondResult: unknown
  /** HTTP requests the second trace needs on a server that traced the first one unfaulted. */
  secondRequests: number
}

export type CaseReport = {
  kind: string
  k: number
  /** Method of the k-th call, and which HTTP request carried it. */
  call: string
  request: number
  /** What the faulted trace answered: `result`, `error <code> <message>`, `timeout`, … */
  outcome: string
  ms: number
  problems: string[]
}

type Running = {
  proxy: Proxy
  edge: Awaited<ReturnType<typeof startEdgetrace>>
  internalErrors: string[]
  base: number
}

async function startCase(scenario: FaultScenario, hooks: ProxyHooks = {}): Promise<Running> {
  const proxy = await createProxy(scenario.node, hooks)
  const internalErrors: string[] = []
  const edge = await startEdgetrace({
    upstream: proxy.url,
    port: 0,
    hardfork: 'prague',
    api: scenario.api,
    engine: scenario.engine,
    log: (line) => {
      if (line.startsWith('internal error')) internalErrors.push(line.split('\n')[0]!)
    },
  })
  return { proxy, edge, internalErrors, base: proxy.log.length }
}

async function stopCase(running: Running) {
  await running.edge.close()
  await running.proxy.stop()
}

const envelope = (method: string, params: unknown[]) => ({ jsonrpc: '2.0', id: 1, method, params })

/** Requests that carried a call about the second trace's block (by number or hash), from call index `after` on. */
function requestsAbout(proxy: Proxy, after: number, markers: string[]): number {
  const requests = new Set<number>()
  for (const call of proxy.log.slice(after)) {
    const text = JSON.stringify(call.params)
    if (markers.some((m) => text.includes(m))) requests.add(call.request)
  }
  return requests.size
}

/** The unfaulted run: the answer, the upstream calls it made, and what the second trace costs after it. */
export async function measureReference(scenario: FaultScenario): Promise<Reference> {
  const running = await startCase(scenario)
  try {
    const first = await timedRpc(running.edge.url, envelope(scenario.trace.method, scenario.trace.params), 30_000)
    const result = resultOf(first)
    const calls = running.proxy.log.slice(running.base)
    const before = running.proxy.log.length
    const second = await timedRpc(running.edge.url, envelope(scenario.second.method, scenario.second.params), 30_000)
    const secondResult = resultOf(second)
    if (running.internalErrors.length > 0) throw new Error(`unfaulted run logged ${running.internalErrors.join('; ')}`)
    return {
      result,
      calls,
      secondResult,
      secondRequests: requestsAbout(running.proxy, before, scenario.second.blockMarkers),
    }
  } finally {
    await stopCase(running)
  }
}

function resultOf(answer: TimedAnswer): unknown {
  if (answer.kind !== 'answer') throw new Error(`unfaulted trace: ${answer.kind}`)
  const json = answer.json as { result?: unknown; error?: unknown } | undefined
  if (!json || json.error !== undefined || json.result === undefined)
    throw new Error(`unfaulted trace answered ${answer.text.slice(0, 300)}`)
  return json.result
}

/**
 * Judges one answer against the reference: a result equal to it, or a clear JSON-RPC error, within
 * the deadline (the fetch was aborted at it). Returns the outcome's summary and what is wrong with it.
 */
export function judge(answer: TimedAnswer, expected: unknown, id: unknown = 1): { outcome: string; problem?: string } {
  if (answer.kind === 'timeout') return { outcome: 'timeout', problem: `no answer within ${Math.round(answer.ms)} ms` }
  if (answer.kind === 'failed')
    return { outcome: `failed (${answer.reason})`, problem: `connection failed: ${answer.reason}` }
  if (answer.status !== 200)
    return { outcome: `HTTP ${answer.status}`, problem: `HTTP ${answer.status}: ${answer.text.slice(0, 200)}` }
  const json = answer.json as
    | { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } }
    | undefined
  if (!json || typeof json !== 'object' || json.jsonrpc !== '2.0' || !isDeepStrictEqual(json.id, id)) {
    return { outcome: 'malformed', problem: `malformed envelope: ${answer.text.slice(0, 200)}` }
  }
  if (json.error !== undefined) {
    const { code, message } = json.error
    const outcome = `error ${String(code)} ${String(message).slice(0, 160)}`
    if (!isJsonRpcErrorCode(code))
      return { outcome, problem: `error code ${String(code)} is not a JSON-RPC error code` }
    if (typeof message !== 'string' || message.trim() === '') return { outcome, problem: 'error without a message' }
    return { outcome }
  }
  if (!('result' in json))
    return { outcome: 'malformed', problem: `neither result nor error: ${answer.text.slice(0, 200)}` }
  if (!isDeepStrictEqual(json.result, expected)) {
    return {
      outcome: 'wrong result',
      problem: `result differs from the unfaulted one: ${JSON.stringify(json.result).slice(0, 200)}`,
    }
  }
  return { outcome: 'result' }
}

/** An answer that must be the reference result exactly (after the fault: the server serves again). */
function mustEqual(answer: TimedAnswer, expected: unknown, what: string): string | undefined {
  const { outcome, problem } = judge(answer, expected)
  if (problem) return `${what}: ${problem}`
  if (outcome !== 'result') return `${what}: ${outcome}`
  return undefined
}

/**
 * Fails the k-th upstream call of the cold trace once (`kind`): the HTTP request carrying it, or
 * only that call inside its batch. Then checks the answer, and that the server goes on serving:
 * eth_chainId, the same trace again, and a cold trace at another block, batched as when unfaulted.
 */
export async function runFaultCase(
  scenario: FaultScenario,
  reference: Reference,
  kind: FaultKind,
  k: number,
): Promise<CaseReport> {
  const target = reference.calls[k - 1]!
  let fired = false
  let targetIndex = Number.POSITIVE_INFINITY
  const hooks: ProxyHooks = {
    onRequest: ({ calls }) => {
      if (fired || !kind.http || !calls.some((c) => c.index === targetIndex)) return undefined
      fired = true
      return kind.http
    },
    callError: (call) => {
      if (fired || !kind.rpcError || call.index !== targetIndex) return undefined
      fired = true
      return kind.rpcError
    },
  }
  const running = await startCase(scenario, hooks)
  targetIndex = running.base + k
  const report: CaseReport = {
    kind: kind.name,
    k,
    call: target.method,
    request: target.request,
    outcome: '',
    ms: 0,
    problems: [],
  }
  try {
    const answer = await timedRpc(
      running.edge.url,
      envelope(scenario.trace.method, scenario.trace.params),
      scenario.deadlineMs,
    )
    report.ms = Math.round(answer.ms)
    const { outcome, problem } = judge(answer, reference.result)
    report.outcome = outcome
    if (problem) report.problems.push(problem)
    if (!fired) report.problems.push(`the fault was never injected (call ${k} did not come)`)
    const seen = running.proxy.log[targetIndex - 1]
    if (fired && seen && seen.method !== target.method)
      report.problems.push(`call ${k} was ${seen.method}, not ${target.method} as unfaulted`)

    const chainId = await timedRpc(running.edge.url, envelope('eth_chainId', []), scenario.deadlineMs)
    const chainIdProblem = mustEqual(chainId, '0x7a69', 'eth_chainId afterwards')
    if (chainIdProblem) report.problems.push(chainIdProblem)
    const again = await timedRpc(
      running.edge.url,
      envelope(scenario.trace.method, scenario.trace.params),
      scenario.deadlineMs,
    )
    const againProblem = mustEqual(again, reference.result, 'the same trace afterwards')
    if (againProblem) report.problems.push(againProblem)
    const before = running.proxy.log.length
    const second = await timedRpc(
      running.edge.url,
      envelope(scenario.second.method, scenario.second.params),
      scenario.deadlineMs,
    )
    const secondProblem = mustEqual(second, reference.secondResult, 'a cold trace at another block afterwards')
    if (secondProblem) report.problems.push(secondProblem)
    else {
      const requests = requestsAbout(running.proxy, before, scenario.second.blockMarkers)
      if (requests > reference.secondRequests) {
        report.problems.push(
          `a cold trace at another block afterwards took ${requests} upstream HTTP requests (${reference.secondRequests} unfaulted): batching was lost`,
        )
      }
    }
    for (const line of running.internalErrors) report.problems.push(`logged ${line.slice(0, 200)}`)
  } finally {
    await stopCase(running)
  }
  return report
}

/** Runs tasks at most `concurrency` at a time, keeping their order in the results. */
export async function runPool<value>(tasks: (() => Promise<value>)[], concurrency: number): Promise<value[]> {
  const results: value[] = new Array(tasks.length)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(concurrency, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++
        results[i] = await tasks[i]!()
      }
    }),
  )
  return results
}
