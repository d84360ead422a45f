import {
  InvalidRequestRpcError,
  MethodNotFoundRpcError,
  ParseRpcError,
  ResponseTooLargeRpcError,
  ServerRpcError,
} from '../errors/rpc.js'
import { ExecutionTimeoutError } from '../errors/execution.js'
import { toRpcError } from '../errors/toRpcError.js'
import { isJsonText } from './isJsonText.js'
import { MAX_JSON_DEPTH, answerId, isNotification, nestingTooDeepError, nestsDeeperThan } from './jsonDepth.js'
import { JsonStream } from './jsonStream.js'
import type { Deadline } from '../types/deadline.js'
import { createDeadline } from '../utils/createDeadline.js'
import { createCallContext, withDeadline } from './progress.js'
import { type JsonTextScan, type ScannedRequest, scanJsonText } from './scanJsonText.js'
import type { ChunkWriter } from '../types/chunkWriter.js'
import type { JsonRpcId, JsonRpcResponse } from '../types/jsonRpc.js'
import type { CallContext, ProgressSink } from '../types/progress.js'
import type { RpcSession } from '../types/rpcSession.js'

/** One JSON-RPC method: receives the raw `params` (and the call's context) and returns the `result`. */
export type RpcMethod = (params: unknown, context: CallContext) => Promise<unknown>

/** A namespace (`eth`, `debug`, …): its methods. A method it does not list does not exist (-32601): nothing is passed through. */
export type RpcNamespace = {
  name: string
  methods: Readonly<Record<string, RpcMethod>>
}

/** Per message: who hears the progress of its long calls (a transport's client), besides the handler's own sink. */
export type HandleOptions = {
  onProgress?: ProgressSink | undefined
  /** The connection the message came on, when the transport can push to it (subscriptions). */
  session?: RpcSession | undefined
  /** Aborts once the client is gone (the transport saw its connection close): its calls may stop. */
  signal?: AbortSignal | undefined
}

export type CreateRpcHandlerParameters = {
  /** Every namespace known (src/rpc/namespaces.ts), served or not: a method of another is −32601 plainly. */
  namespaces: readonly RpcNamespace[]
  /** Namespaces served (`--http.api`); the others answer -32601 naming the flag. */
  enabled: readonly string[]
  /** Largest batch accepted (`--rpc.batch.limit`, default 100). */
  batchLimit?: number
  /** Calls of one batch run at most this many at a time (`--rpc.batch.concurrency`, default 2). */
  batchConcurrency?: number
  /** Told about every error that is not a deliberate JSON-RPC error (for logs). */
  onInternalError?: (err: unknown, method: string) => void
  /** Hears the progress of every long call (the Node server logs it). */
  onProgress?: ProgressSink | undefined
  /** At most one progress event per call this often, ms (default 250); the first and last always. */
  progressEveryMs?: number
  /**
   * Each call is answered within this long after it starts (moved on by its progress): past it, the
   * client gets geth's timeout error whatever the method still waits for. Default: 5 minutes
   * (`--rpc.evmtimeout`'s default).
   */
  requestTimeoutMs?: number
  /**
   * Told of every call once it is answered (or its stream begins): its method (`known` false for a
   * name no namespace has, which a metric must not take as a label), whether it failed, and how long
   * it took.
   */
  onCallDone?: (call: { method: string; known: boolean; ok: boolean; ms: number }) => void
  /**
   * `--rpc.response.limit`: most bytes one message's answer may have (a batch's answers together, as
   * geth's --rpc.batch-response-max-size counts them); 0, the default, for no limit. An answer past it
   * is geth's -32003 `response too large` naming the flag (a streamed one beside what was sent).
   */
  maxResponseBytes?: number
}

export type RpcHandler = {
  /** A parsed JSON-RPC message (single or batch) → its response, or undefined when nothing is owed. */
  handleMessage(message: unknown, options?: HandleOptions): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined>
  /** Raw text in, raw text out (parse errors included). */
  handleText(text: string, options?: HandleOptions): Promise<string | undefined>
  /**
   * Raw text in, response text written in chunks as it is produced (streamed results leave while
   * they are computed). Resolves false when nothing is owed (notifications only).
   */
  handleTextStreaming(text: string, write: ChunkWriter, options?: HandleOptions): Promise<boolean>
  /** The namespaces served. */
  readonly enabled: readonly string[]
}

function response(id: JsonRpcId, outcome: { result: unknown } | { error: unknown }): JsonRpcResponse {
  if ('error' in outcome) return { jsonrpc: '2.0', id, error: toRpcError(outcome.error) }
  return { jsonrpc: '2.0', id, result: outcome.result === undefined ? null : outcome.result }
}

function isValidId(id: unknown): id is JsonRpcId | undefined {
  return id === undefined || id === null || typeof id === 'string' || typeof id === 'number'
}

/**
 * The JSON-RPC 2.0 core shared by every transport: envelopes, batches, notifications, namespace
 * gating and dispatch. Method errors become `{ code, message, data }` here and never escape.
 */
export function createRpcHandler({
  namespaces,
  enabled,
  batchLimit = 100,
  batchConcurrency = 2,
  onInternalError,
  onProgress,
  progressEveryMs = 250,
  requestTimeoutMs = 5 * 60_000,
  maxResponseBytes = 0,
  onCallDone,
}: CreateRpcHandlerParameters): RpcHandler {
  const byName = new Map(namespaces.map((ns) => [ns.name, ns]))
  const isKnown = (method: string) => {
    const sep = method.indexOf('_')
    return sep > 0 && Object.hasOwn(byName.get(method.slice(0, sep))?.methods ?? {}, method)
  }
  const enabledSet = new Set(enabled)

  async function dispatch(method: string, params: unknown, context: CallContext): Promise<unknown> {
    const sep = method.indexOf('_')
    const nsName = sep > 0 ? method.slice(0, sep) : ''
    const ns = byName.get(nsName)
    if (!ns) throw new MethodNotFoundRpcError(method)
    if (!enabledSet.has(nsName)) {
      throw new MethodNotFoundRpcError(method, `the ${nsName} namespace is not enabled: add ${nsName} to --http.api`)
    }
    const handler = Object.hasOwn(ns.methods, method) ? ns.methods[method] : undefined
    if (handler) return handler(params, context)
    throw new MethodNotFoundRpcError(method)
  }

  /**
   * The method's answer, or its deadline's error once that passes first (the method winds down
   * alone). The deadline is armed before the method starts, so it fires before the time limits of
   * the upstream calls the method makes (each as long, but started later).
   */
  const beforeDeadline = <value>(deadline: Deadline, start: () => Promise<value>): Promise<value> => {
    const timeout = new Promise<never>((_, reject) =>
      deadline.signal.addEventListener('abort', () => reject(deadline.reason), { once: true }),
    )
    // A failure once the deadline has passed is the deadline's (an upstream call given up as it
    // passed, say): the client is told its request timed out.
    const work = start().catch((err: unknown) => {
      throw deadline.aborted ? deadline.reason : err
    })
    work.catch(() => {}) // a failure after the deadline has no one to go to
    return Promise.race([work, timeout]).finally(() => {
      timeout.catch(() => {})
    })
  }

  /** A streamed result is produced after the method returned: its deadline is cleared once it is done. */
  const disposedAfter = (stream: JsonStream, deadline: Deadline) =>
    new JsonStream((write, hold) => stream.produce(write, hold).finally(() => deadline.dispose()))

  async function handleOne(message: unknown, options: HandleOptions | undefined): Promise<JsonRpcResponse | undefined> {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      return response(null, { error: new InvalidRequestRpcError() })
    }
    const { id, method, params, jsonrpc } = message as Record<string, unknown>
    const isNotification = !('id' in message)
    if (!isValidId(id) || jsonrpc !== '2.0' || typeof method !== 'string' || method === '') {
      return response(isValidId(id) ? (id ?? null) : null, { error: new InvalidRequestRpcError() })
    }
    let outcome: { result: unknown } | { error: unknown }
    const started = performance.now()
    const deadline = createDeadline(
      requestTimeoutMs,
      // The wording of geth's evmtimeout: the request's deadline and its execution's are one limit.
      () => new ExecutionTimeoutError(requestTimeoutMs),
    )
    try {
      const progress = createCallContext(
        [onProgress, options?.onProgress],
        { id: id ?? undefined, method },
        progressEveryMs,
      )
      const timed = withDeadline(progress, deadline, requestTimeoutMs)
      const context: CallContext = {
        ...timed,
        ...(options?.session ? { session: options.session } : {}),
        ...(options?.signal ? { signal: options.signal } : {}),
      }
      const result = await beforeDeadline(deadline, () => dispatch(method, params, context))
      if (result instanceof JsonStream) outcome = { result: disposedAfter(result, deadline) }
      else {
        outcome = { result }
        deadline.dispose()
      }
    } catch (error) {
      deadline.dispose()
      if (!(error instanceof Error) || error.name === 'Error' || error.name === 'TypeError') {
        onInternalError?.(error, method)
      }
      outcome = { error }
    }
    onCallDone?.({ method, known: isKnown(method), ok: !('error' in outcome), ms: performance.now() - started })
    return isNotification ? undefined : response(id ?? null, outcome)
  }

  /**
   * A request refused before dispatch (nested too deep), by request and its index in the message:
   * its answer, which is undefined for a notification (never answered). Undefined: not refused.
   */
  type Refusal = (request: unknown, index: number) => { answer: JsonRpcResponse | undefined } | undefined
  /** A message's answers: one per request of a batch, in order (undefined: a notification), or one for it all. */
  type Answers =
    | { batch: false; answer: JsonRpcResponse | undefined }
    | { batch: true; answers: (JsonRpcResponse | undefined)[] }

  async function answer(message: unknown, options: HandleOptions | undefined, refuse: Refusal): Promise<Answers> {
    if (!Array.isArray(message)) {
      const refused = refuse(message, 0)
      return { batch: false, answer: refused ? refused.answer : await handleOne(message, options) }
    }
    if (message.length === 0)
      return { batch: false, answer: response(null, { error: new InvalidRequestRpcError('empty batch') }) }
    if (message.length > batchLimit) {
      return {
        batch: false,
        answer: response(null, {
          error: new ServerRpcError(
            `batch limit ${batchLimit} exceeded (can increase by --rpc.batch.limit). Requested batch of size: ${message.length}`,
          ),
        }),
      }
    }
    const results: (JsonRpcResponse | undefined)[] = new Array(message.length)
    let next = 0
    const workers = Array.from({ length: Math.min(batchConcurrency, message.length) }, async () => {
      while (next < message.length) {
        const i = next++
        const refused = refuse(message[i], i)
        results[i] = refused ? refused.answer : await handleOne(message[i], options)
      }
    })
    await Promise.all(workers)
    return { batch: true, answers: results }
  }

  async function handleMessage(
    message: unknown,
    options?: HandleOptions,
  ): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    // Parsed messages (the browser's postMessage and EIP-1193 paths) are measured without recursion;
    // an over-deep request of a batch fails alone, with its id when it has a valid one (a notification
    // is not answered).
    const out = await answer(message, options, (request) =>
      nestsDeeperThan(request)
        ? {
            answer: isNotification(request) ? undefined : response(answerId(request), { error: nestingTooDeepError() }),
          }
        : undefined,
    )
    if (!out.batch) return out.answer
    const answered = out.answers.filter((r): r is JsonRpcResponse => r !== undefined)
    return answered.length === 0 ? undefined : answered
  }

  /**
   * One response as text, its id written as `idText` (the id's JSON text as received) when given. A
   * streamed result's text is held until the stream writes real content, so a failure before that is
   * a plain error response; after it, the error rides beside the partial result (Erigon's shape).
   */
  async function writeResponse(
    res: JsonRpcResponse,
    write: ChunkWriter,
    idText = JSON.stringify(res.id) ?? 'null',
    budget: ResponseBudget = { used: 0, over: false },
  ): Promise<void> {
    const head = `{"jsonrpc":"2.0","id":${idText},`
    const tooLarge = () =>
      `${head}"error":${JSON.stringify(toRpcError(new ResponseTooLargeRpcError(maxResponseBytes)))}}`
    const result = 'result' in res ? res.result : undefined
    if (!(result instanceof JsonStream)) {
      const body = JSON.stringify(
        'error' in res ? { error: res.error } : { result: res.result ?? null },
        bigintReplacer,
      )
      const text = head + body.slice(1)
      if (maxResponseBytes > 0 && !('error' in res)) {
        budget.used += text.length
        if (budget.over || budget.used > maxResponseBytes) {
          budget.over = true
          await write(tooLarge())
          return
        }
      }
      await write(text)
      return
    }
    const prefix = `${head}"result":`
    let held = ''
    let sent = false
    try {
      // Chunks reach `write` in call order: what is held goes out in the same call as the content after it.
      await result.produce(
        (chunk) => {
          if (maxResponseBytes > 0) {
            // Past the limit only what closes the JSON already sent goes out (a failing producer's
            // brackets); content is refused, which stops the producer. A response none of whose
            // content went out (a batch's next, the budget spent) closes nothing: its error is plain.
            if (budget.over ? !sent || chunk.length > CLOSING_BYTES : budget.used + chunk.length > maxResponseBytes) {
              budget.over = true
              return Promise.reject(new ResponseTooLargeRpcError(maxResponseBytes))
            }
            budget.used += chunk.length
          }
          const out = `${sent ? '' : prefix}${held}${chunk}`
          held = ''
          sent = true
          return write(out)
        },
        (text) => {
          held += text
        },
      )
      await write(sent ? `${held}}` : `${prefix}${held || 'null'}}`)
    } catch (error) {
      if (!(error instanceof Error) || error.name === 'Error' || error.name === 'TypeError')
        onInternalError?.(error, 'stream')
      // Over the limit, that is the error, however the producer worded its stop.
      const rpcError = JSON.stringify(toRpcError(budget.over ? new ResponseTooLargeRpcError(maxResponseBytes) : error))
      await write(sent ? `${held},"error":${rpcError}}` : `${head}"error":${rpcError}}`)
    }
  }

  async function handleTextStreaming(text: string, write: ChunkWriter, options?: HandleOptions): Promise<boolean> {
    // One linear scan first: requests nested over the limit are cut out of the text before it is
    // parsed (they are answered -32600 without being parsed or dispatched, notifications not at all),
    // and every id's JSON text is kept to be echoed as it came. What is cut out is still checked to be
    // JSON: a malformed message is a parse error however deep.
    const scan = scanJsonText(text)
    const tooDeep = scan.requests.map((r) => r.depth > MAX_JSON_DEPTH)
    const anyTooDeep = tooDeep.includes(true)
    let message: unknown
    try {
      if (
        anyTooDeep &&
        (!scan.complete || scan.requests.some((r, i) => tooDeep[i] && !isJsonText(text, r.start, r.end)))
      ) {
        throw new Error('not JSON')
      }
      message = JSON.parse(anyTooDeep ? withRequestsCut(text, scan, tooDeep) : text)
      if (
        anyTooDeep &&
        !(scan.batch ? Array.isArray(message) && message.length === scan.requests.length : message === null)
      )
        throw new Error('not JSON')
    } catch {
      await write(JSON.stringify(response(null, { error: new ParseRpcError() })))
      return true
    }
    // The scan describes the message request by request only when it lines up with what was parsed.
    const aligned =
      scan.complete &&
      (scan.batch ? Array.isArray(message) && message.length === scan.requests.length : !Array.isArray(message))
    const idText = (res: JsonRpcResponse, i: number) =>
      aligned && (typeof res.id === 'string' || typeof res.id === 'number') ? scan.requests[i]?.id : undefined
    const out = await answer(message, options, (_request, i) => {
      if (!tooDeep[i]) return undefined
      const scanned = scan.requests[i]!
      return {
        answer: isScannedNotification(scanned)
          ? undefined
          : response(parseIdText(scanned.id), { error: nestingTooDeepError() }),
      }
    })
    const budget: ResponseBudget = { used: 0, over: false }
    if (!out.batch) {
      if (out.answer === undefined) return false
      await writeResponse(out.answer, write, scan.batch ? undefined : idText(out.answer, 0), budget)
      return true
    }
    if (out.answers.every((r) => r === undefined)) return false
    await write('[')
    let first = true
    for (const [i, res] of out.answers.entries()) {
      if (res === undefined) continue
      if (!first) await write(',')
      first = false
      await writeResponse(res, write, idText(res, i), budget)
    }
    await write(']')
    return true
  }

  async function handleText(text: string, options?: HandleOptions): Promise<string | undefined> {
    const parts: string[] = []
    const owed = await handleTextStreaming(
      text,
      (chunk) => {
        parts.push(chunk)
      },
      options,
    )
    return owed ? parts.join('') : undefined
  }

  return { handleMessage, handleText, handleTextStreaming, enabled: [...enabled] }
}

/** What one message's answers have written so far, against `--rpc.response.limit`. */
type ResponseBudget = { used: number; over: boolean }

/** What a stream stopped at the response limit may still write: the brackets closing what it sent. */
const CLOSING_BYTES = 256

/** The id a scanned id text stands for, when it is a valid one (string or number); null otherwise. */
function parseIdText(text: string | undefined): JsonRpcId {
  // Only a string or a number is parsed: an over-deep request's id may itself be the deep part.
  if (text === undefined || !/^["\-0-9]/.test(text)) return null
  try {
    const id: unknown = JSON.parse(text)
    return typeof id === 'string' || typeof id === 'number' ? id : null
  } catch {
    return null
  }
}

/** isNotification, told from a scanned request's member texts (an over-deep request is never parsed). */
function isScannedNotification(request: ScannedRequest): boolean {
  if (request.id !== undefined) return false
  const method = stringFromText(request.method)
  return stringFromText(request.jsonrpc) === '2.0' && method !== undefined && method !== ''
}

/** The string a member's JSON text stands for; undefined when it is no string (only a string is parsed). */
function stringFromText(text: string | undefined): string | undefined {
  if (text === undefined || !text.startsWith('"')) return undefined
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'string' ? value : undefined
  } catch {
    return undefined
  }
}

/** The text with each request marked in `cut` replaced by `null` (so that JSON.parse never sees it). */
function withRequestsCut(text: string, scan: JsonTextScan, cut: readonly boolean[]): string {
  const parts: string[] = []
  let at = 0
  for (const [i, request] of scan.requests.entries()) {
    if (!cut[i]) continue
    parts.push(text.slice(at, request.start), 'null')
    at = request.end
  }
  parts.push(text.slice(at))
  return parts.join('')
}

function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? `0x${value.toString(16)}` : value
}
