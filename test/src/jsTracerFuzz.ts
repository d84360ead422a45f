import { parseGoDuration } from '../../src/utils/parseGoDuration.js'
import type { StreamClient } from './streamClient.js'
import { timedRpc } from './timedRpc.js'

/**
 * Hostile and broken JavaScript tracers, each with what the daemon owes for it: an answer (a
 * result, or an error in geth's words where geth has words for it) within the tracer's own timeout
 * plus 2 s, whatever transport carries it, with no host file path in any text, and a daemon that
 * serves the next request as if nothing had happened.
 */
export type JsTracerCase = {
  label: string
  /** The tracer's source, as `tracer` of debug_traceCall's config. */
  code: string
  /** Its `timeout` (geth's duration text). */
  timeout: string
  /** A result equal to this (JSON), an error matching this, or any error. */
  want: { result: unknown } | { error: RegExp } | 'error' | 'any'
}

const FAULT = 'fault: function () {}'

/**
 * The start of a tracer thread started for the request (after an endless tracer's thread was ended)
 * is not on the tracer's clock, which counts its run alone (a7dacf3, 9faa51a): on a loaded machine a
 * start takes a few seconds, which come on top of the timeout.
 */
const THREAD_START_MS = 5000
/** What a case may take: its tracer's timeout plus 2 s, and a thread's start. */
const limitOf = (c: JsTracerCase) => parseGoDuration(c.timeout) + 2000 + THREAD_START_MS

export const JS_TRACER_CASES: readonly JsTracerCase[] = [
  {
    label: 'endless step',
    code: `{ step: function () { for (;;) {} }, ${FAULT}, result: function () { return 1 } }`,
    timeout: '500ms',
    want: { error: /execution timeout/ },
  },
  {
    label: 'endless result',
    code: `{ ${FAULT}, result: function () { for (;;) {} } }`,
    timeout: '500ms',
    want: { error: /execution timeout/ },
  },
  {
    label: 'endless setup',
    code: `{ setup: function () { for (;;) {} }, ${FAULT}, result: function () { return 1 } }`,
    timeout: '500ms',
    want: 'error',
  },
  {
    label: 'endless toJSON of the result',
    code: `{ ${FAULT}, result: function () { return { toJSON: function () { for (;;) {} } } } }`,
    timeout: '500ms',
    want: 'error',
  },
  {
    label: 'a 200 MB result',
    code: `{ ${FAULT}, result: function () { return 'x'.repeat(200000000) } }`,
    timeout: '5s',
    want: 'error',
  },
  {
    label: 'a memory bomb in step',
    code: `{ a: [], step: function () { for (var i = 0; i < 1e6; i++) this.a.push(new Array(1e4).fill(i)) }, ${FAULT}, result: function () { return this.a.length } }`,
    timeout: '5s',
    want: 'error',
  },
  {
    label: 'host globals',
    code: `{ ${FAULT}, result: function () { return [typeof process, typeof require, typeof fetch, typeof Buffer, typeof globalThis.process] } }`,
    // Its result is the point: 5 s, as the clean tracer's (the start of the thread that replaces the
    // one the memory hog before it ended is not on its clock).
    timeout: '5s',
    want: { result: ['undefined', 'undefined', 'undefined', 'undefined', 'undefined'] },
  },
  {
    label: 'a Function-constructor escape',
    code: `{ ${FAULT}, result: function () { return (function () {}).constructor('return typeof process')() } }`,
    timeout: '2s',
    want: 'any',
  },
  {
    label: 'a realm-wide prepareStackTrace',
    code: `{ setup: function () { Error.prepareStackTrace = function () { return 'leaked' } }, ${FAULT}, result: function () { throw new Error('from the tracer') } }`,
    timeout: '2s',
    want: 'error',
  },
  {
    label: 'poisoned error prototypes',
    code: `{ ${FAULT}, result: function () { try { Error.prototype.poisoned = 1 } catch (e) {} try { Object.prototype.poisoned = 1 } catch (e) {} try { TypeError.prototype.toString = function () { return 'poisoned' } } catch (e) {} return 1 } }`,
    timeout: '2s',
    want: 'any',
  },
  {
    label: 'an endless microtask loop',
    code: `{ setup: function () { var loop = function () { Promise.resolve().then(loop) }; loop() }, ${FAULT}, result: function () { return 1 } }`,
    timeout: '500ms',
    want: 'any',
  },
  {
    label: 'a thrown object with an endless getter',
    code: `{ ${FAULT}, result: function () { throw { get message() { for (;;) {} } } } }`,
    timeout: '500ms',
    want: 'error',
  },
  {
    // After all of the above: nothing they left behind is seen by this one. (SES gives every
    // compartment's Error a powerless prepareStackTrace of its own, which returns '': what an
    // earlier tracer set is not it.)
    label: 'a clean tracer after the hostile ones',
    code: `{ n: 0, step: function () { this.n++ }, ${FAULT}, result: function () { return [this.n > 0, Error.prototype.poisoned === undefined, ({}).poisoned === undefined, (function () { var p = Error.prepareStackTrace; return p === undefined || p(new Error('x'), []) !== 'leaked' })()] } }`,
    timeout: '5s',
    want: { result: [true, true, true, true] },
  },
]

/** Paths of the host that no error text may show (the sandbox's own files, node_modules, file URLs). */
const HOST_PATH = /(file:\/\/|node_modules|\/work\/|\/home\/|\/tmp\/|\/src\/[a-z]+\/[A-Za-z]+\.ts)/

type Answer = { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } }

/** What is wrong with the answer to one case (empty: nothing), answered in `ms`. */
export function checkJsTracerAnswer(c: JsTracerCase, text: string | undefined, ms: number): string[] {
  const limitMs = limitOf(c)
  if (text === undefined) return [`${c.label}: no answer within ${limitMs} ms`]
  const problems: string[] = []
  if (ms > limitMs)
    problems.push(`${c.label}: answered after ${Math.round(ms)} ms, over its timeout + 2 s and a thread start`)
  let answer: Answer
  try {
    answer = JSON.parse(text) as Answer
  } catch {
    return [...problems, `${c.label}: the answer is not JSON — ${text.slice(0, 160)}`]
  }
  if (HOST_PATH.test(text)) problems.push(`${c.label}: the answer shows a host path — ${text.slice(0, 300)}`)
  const message = typeof answer.error?.message === 'string' ? answer.error.message : undefined
  if (answer.error !== undefined && (typeof answer.error.code !== 'number' || message === undefined))
    problems.push(`${c.label}: a malformed error — ${text.slice(0, 160)}`)
  if (message?.includes('leaked')) problems.push(`${c.label}: a tracer's prepareStackTrace reached the answer`)
  const want = c.want
  if (want === 'any') return problems
  if (want === 'error') {
    if (answer.error === undefined) problems.push(`${c.label}: a result, want an error — ${text.slice(0, 160)}`)
    return problems
  }
  if ('error' in want) {
    if (message === undefined || !want.error.test(message))
      problems.push(`${c.label}: want an error matching ${want.error} — ${text.slice(0, 200)}`)
    return problems
  }
  if (JSON.stringify(answer.result) !== JSON.stringify(want.result))
    problems.push(`${c.label}: want result ${JSON.stringify(want.result)} — ${text.slice(0, 200)}`)
  return problems
}

/** debug_traceCall of `call` at `block` with a case's tracer. */
export function jsTracerRequest(c: JsTracerCase, id: number | string, call: unknown, block: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'debug_traceCall',
    params: [call, block, { tracer: c.code, timeout: c.timeout }],
  })
}

/** Each case over HTTP, one after another: the problems found. */
export async function runJsTracerCasesOverHttp(url: string, call: unknown, block: string): Promise<string[]> {
  const problems: string[] = []
  for (const c of JS_TRACER_CASES) {
    const limitMs = limitOf(c)
    const answer = await timedRpc(url, jsTracerRequest(c, 1, call, block), limitMs + 3000)
    if (answer.kind !== 'answer') {
      problems.push(
        `${c.label}: ${answer.kind === 'timeout' ? `no answer within ${limitMs + 3000} ms` : answer.reason} (over HTTP)`,
      )
      continue
    }
    problems.push(...checkJsTracerAnswer(c, answer.text, answer.ms).map((p) => `${p} (over HTTP)`))
  }
  return problems
}

/** Each case over a stream connection, one after another: the problems found. */
export async function runJsTracerCasesOverStream(
  client: StreamClient,
  call: unknown,
  block: string,
): Promise<string[]> {
  const problems: string[] = []
  let id = 0
  for (const c of JS_TRACER_CASES) {
    const limitMs = limitOf(c)
    const started = performance.now()
    const text = jsTracerRequest(c, `js-${++id}`, call, block)
    client.send(client.kind === 'WebSocket' ? text : `${text}\n`)
    const answer = await client.next(Date.now() + limitMs + 3000)
    problems.push(
      ...checkJsTracerAnswer(c, answer, performance.now() - started).map((p) => `${p} (over ${client.kind})`),
    )
    if (client.closed) {
      problems.push(`${c.label}: the server closed the ${client.kind} connection`)
      break
    }
  }
  return problems
}

/**
 * Endless tracers from several clients at once, beside a well-behaved one: every one answers within
 * its own timeout + 2 s and a thread start (a tracer never holds another client's for longer than that client's own
 * timeout), the well-behaved one with its result.
 */
export async function runConcurrentJsTracers(
  url: string,
  call: unknown,
  block: string,
  endless = 4,
): Promise<string[]> {
  const hog = JS_TRACER_CASES.find((c) => c.label === 'endless step')!
  const clean = JS_TRACER_CASES.find((c) => c.label === 'a clean tracer after the hostile ones')!
  const runs = [...Array.from({ length: endless }, () => hog), clean].map(async (c, i) => {
    const limitMs = limitOf(c)
    const answer = await timedRpc(url, jsTracerRequest(c, i, call, block), limitMs + 3000)
    if (answer.kind !== 'answer') return [`${c.label} (${endless} endless at once): ${answer.kind}`]
    return checkJsTracerAnswer(c, answer.text, answer.ms).map((p) => `${p} (${endless} endless tracers at once)`)
  })
  return (await Promise.all(runs)).flat()
}
