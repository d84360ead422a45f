import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FuzzContext, type FuzzRequest, checkAnswer, createFuzzer, createPrng } from './src/fuzzRequests.js'
import { formatFuzzReport, runFuzz } from './src/runFuzz.js'
import { pipelinable, runPipelinedFuzz } from './src/runPipelinedFuzz.js'
import { openStreamClient } from './src/streamClient.js'
import {
  JS_TRACER_CASES,
  runConcurrentJsTracers,
  runJsTracerCasesOverHttp,
  runJsTracerCasesOverStream,
} from './src/jsTracerFuzz.js'
import { startFuzzTarget } from './src/startFuzzTarget.js'
import { nestsDeeperThan } from '../src/rpc/jsonDepth.js'

// A bounded fuzz run in every `npm test`: seeded malformed requests (bad JSON, wrong envelopes, wrong
// parameter types for real methods, huge and negative numbers, deep nesting, long strings, odd ids,
// notifications, batches mixing good and bad) over HTTP and WebSocket. Every answer must be a
// well-formed JSON-RPC 2.0 envelope with the right id and a JSON-RPC error code (the expected one
// where the case is clear-cut), and the server must still serve afterwards. The seed is printed; a
// longer run: `npm run fuzz -- --seed N --count M`.

const SEED = Number(process.env.FUZZ_SEED ?? 20_251_212)
const HTTP_COUNT = 2000
const WS_COUNT = 300
const IPC_COUNT = 300
/** Pipelined requests over each stream transport (WebSocket, IPC, TCP), in windows of PIPELINE_WINDOW. */
const PIPELINED_COUNT = 300
const PIPELINE_WINDOW = 32

let target: Awaited<ReturnType<typeof startFuzzTarget>>
const processErrors: string[] = []
const onProcessError = (err: unknown) =>
  processErrors.push(err instanceof Error ? `${err.name}: ${err.message}` : String(err))

beforeAll(async () => {
  process.on('unhandledRejection', onProcessError)
  process.on('uncaughtException', onProcessError)
  target = await startFuzzTarget()
})
afterAll(async () => {
  process.off('unhandledRejection', onProcessError)
  process.off('uncaughtException', onProcessError)
  await target?.stop()
})

describe('the fuzzer itself', () => {
  const context: FuzzContext = {
    contract: `0x${'11'.repeat(20)}`,
    account: `0x${'22'.repeat(20)}`,
    block: '0x2',
    txHash: `0x${'33'.repeat(32)}`,
    maxBodyBytes: 5 * 1024 * 1024,
  }

  it('gives the same requests for the same seed, and others for another', () => {
    const run = (seed: number) => {
      const fuzzer = createFuzzer(createPrng(seed), context)
      return Array.from({ length: 50 }, () => fuzzer.request().text)
    }
    expect(run(1)).toEqual(run(1))
    expect(run(1)).not.toEqual(run(2))
  })

  it('owes -32600 to every request nested over 128 levels, whatever else is wrong with it, and nothing to such a notification', () => {
    const fuzzer = createFuzzer(createPrng(3), context)
    let deepCalls = 0
    let deepNotifications = 0
    for (let i = 0; i < 3000; i++) {
      const request = fuzzer.request()
      if (
        request.label === 'bad JSON' ||
        !request.text.startsWith('{') ||
        (request.expect.kind !== 'single' && request.expect.kind !== 'nothing')
      )
        continue
      const parsed = JSON.parse(request.text) as Record<string, unknown> // V8 parses any depth without recursion
      if (!nestsDeeperThan(parsed, 128)) continue
      if (request.expect.kind === 'nothing') {
        deepNotifications++
        expect('id' in parsed).toBe(false)
        continue
      }
      deepCalls++
      expect(request.expect.entry.want, request.expect.entry.label).toEqual([-32600])
    }
    expect(deepCalls).toBeGreaterThan(10)
    expect(deepNotifications).toBeGreaterThan(0)
  })

  it('accepts the answers owed and flags wrong codes, wrong ids, answered notifications and bad envelopes', () => {
    const single = (want: FuzzRequest['expect']): FuzzRequest => ({ label: 'case', text: '{}', expect: want })
    const wants602 = single({ kind: 'single', entry: { label: 'bad params', id: 7, want: [-32602] } })
    expect(
      checkAnswer(wants602, 200, '{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"invalid argument 0"}}'),
    ).toEqual([])
    expect(
      checkAnswer(wants602, 200, '{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"invalid argument 0"}}'),
    ).toHaveLength(1)
    expect(
      checkAnswer(wants602, 200, '{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"invalid argument 0"}}')[0],
    ).toMatch(/^id 7 answered as 8/)
    expect(checkAnswer(wants602, 200, '{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"x"}}')[0]).toMatch(
      /not a JSON-RPC error code/,
    )
    expect(checkAnswer(wants602, 200, '{"id":7,"error":{"code":-32602,"message":"x"}}')[0]).toMatch(/without jsonrpc/)
    expect(checkAnswer(wants602, 500, '')[0]).toMatch(/HTTP 500/)
    const infinity = single({
      kind: 'single',
      entry: { label: 'odd id', id: Number.POSITIVE_INFINITY, want: 'result' },
    })
    expect(checkAnswer(infinity, 200, '{"jsonrpc":"2.0","id":1e400,"result":"0x1"}')).toEqual([])
    expect(checkAnswer(infinity, 200, '{"jsonrpc":"2.0","id":null,"result":"0x1"}')[0]).toMatch(
      /^id Infinity answered as null/,
    )
    expect(checkAnswer(single({ kind: 'nothing' }), 200, '')).toEqual([])
    expect(checkAnswer(single({ kind: 'nothing' }), 200, '{"jsonrpc":"2.0","id":null,"result":"0x1"}')[0]).toMatch(
      /notification was answered/,
    )
    const batch: FuzzRequest = {
      label: 'batch',
      text: '[]',
      expect: {
        kind: 'batch',
        entries: [
          { label: 'a', id: 1, want: 'result' },
          { label: 'b', id: 2, want: [-32601] },
          { label: 'c', id: null, want: [-32600] },
        ],
      },
    }
    const ok =
      '[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}},{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"nope"}},{"jsonrpc":"2.0","id":1,"result":"0x"}]'
    expect(checkAnswer(batch, 200, ok)).toEqual([])
    expect(checkAnswer(batch, 200, ok.replace('-32601', '-32602'))[0]).toMatch(/^b: error -32602, want error -32601/)
    expect(checkAnswer(batch, 200, '[{"jsonrpc":"2.0","id":1,"result":"0x"}]')).toHaveLength(2)
  })
})

describe('fuzz', () => {
  it(`${HTTP_COUNT} requests over HTTP, ${WS_COUNT} over WebSocket and ${IPC_COUNT} over IPC (seed ${SEED}): every answer well-formed, the right id and code`, async () => {
    console.log(`fuzz seed ${SEED} (set FUZZ_SEED to change it)`)
    const report = await runFuzz({
      url: target.url,
      wsUrl: target.wsUrl,
      seed: SEED,
      count: HTTP_COUNT,
      wsCount: WS_COUNT,
      socketPath: target.socketPath,
      socketCount: IPC_COUNT,
      context: target.context,
    })
    console.log(formatFuzzReport(report))
    expect(report.findings.map((f) => `${f.count}× ${f.key}: ${f.examples[0]!.problem}`)).toEqual([])
  }, 180_000)

  for (const transport of ['WebSocket', 'IPC', 'TCP'] as const) {
    it(`${PIPELINED_COUNT} requests pipelined over ${transport}, ${PIPELINE_WINDOW} at a time (seed ${SEED}): each answered by its id within the deadline + 2 s, notifications never`, async () => {
      const stream = transport !== 'WebSocket'
      const fuzzer = createFuzzer(createPrng(SEED + transport.length), target.context)
      const requests: FuzzRequest[] = []
      while (requests.length < PIPELINED_COUNT) {
        const request = fuzzer.request()
        if (pipelinable(request, stream, target.context.maxBodyBytes)) requests.push(request)
      }
      const url = transport === 'WebSocket' ? target.wsUrl : transport === 'IPC' ? target.socketUrl : target.tcpUrl
      const client = await openStreamClient(url)
      try {
        const outcome = await runPipelinedFuzz(client, requests, {
          window: PIPELINE_WINDOW,
          timeoutMs: target.evmTimeoutMs + 2000,
        })
        expect(outcome.sent).toBeGreaterThan(PIPELINED_COUNT * 0.8)
        expect(
          outcome.problems.flatMap((p) => p.problems.map((line) => `${line} [${p.request.text.slice(0, 120)}]`)),
        ).toEqual([])
        expect(client.closed).toBe(false)
      } finally {
        client.close()
      }
    }, 120_000)
  }

  it(`${JS_TRACER_CASES.length} hostile JavaScript tracers over HTTP (endless, huge results, host-object probes): each answered within its timeout + 2 s (and a thread start), no host path shown, nothing left behind`, async () => {
    const call = { to: target.context.contract, data: '0x' }
    expect(await runJsTracerCasesOverHttp(target.url, call, 'latest')).toEqual([])
  }, 180_000)

  for (const transport of ['WebSocket', 'IPC', 'TCP'] as const) {
    it(`the hostile JavaScript tracers over ${transport}`, async () => {
      const url = transport === 'WebSocket' ? target.wsUrl : transport === 'IPC' ? target.socketUrl : target.tcpUrl
      const client = await openStreamClient(url)
      try {
        const call = { to: target.context.contract, data: '0x' }
        expect(await runJsTracerCasesOverStream(client, call, 'latest')).toEqual([])
      } finally {
        client.close()
      }
    }, 180_000)
  }

  it("endless JavaScript tracers from four clients at once never hold a fifth client's tracer past its own timeout", async () => {
    const call = { to: target.context.contract, data: '0x' }
    expect(await runConcurrentJsTracers(target.url, call, 'latest', 4)).toEqual([])
  }, 60_000)

  it('the server still serves afterwards, batches its upstream calls, and logged no internal error', async () => {
    expect(await target.checkStillServing()).toEqual([])
  })

  it('no unhandled rejection or uncaught exception', () => {
    expect(processErrors).toEqual([])
  })
})
