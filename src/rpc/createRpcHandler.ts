import { InvalidRequestRpcError, MethodNotFoundRpcError, ParseRpcError, ServerRpcError } from '../errors/rpc.js'
import { toRpcError } from '../errors/toRpcError.js'
import { type ChunkWriter, JsonStream } from './jsonStream.js'
import { type Deadline, type RequestScope, createDeadline } from '../utils/createDeadline.js'
import { formatDuration } from '../utils/formatDuration.js'
import { type CallContext, type ProgressSink, createCallContext, withDeadline } from './progress.js'
import type { JsonRpcId, JsonRpcResponse } from './types.js'

/** One JSON-RPC method: receives the raw `params` (and the call's context) and returns the `result`. */
export type RpcMethod = (params: unknown, context: CallContext) => Promise<unknown>

/** A namespace (`eth`, `debug`, …): its methods, and optionally a handler for methods it does not list. */
export type RpcNamespace = {
  name: string
  methods: Readonly<Record<string, RpcMethod>>
  /** Called for `<name>_*` methods not in `methods` (eth passes them through to the upstream). */
  fallback?: (method: string, params: unknown) => Promise<unknown>
}

/** Per message: who hears the progress of its long calls (a transport's client), besides the handler's own sink. */
export type HandleOptions = { onProgress?: ProgressSink | undefined }

export type CreateRpcHandlerParameters = {
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
   * Each call gets a deadline this long after it starts (moved on by its progress): the upstream
   * calls it needs are not waited for past it. Default: 5 minutes (`--rpc.evmtimeout`'s default).
   */
  requestTimeoutMs?: number
  /** Carries each call's deadline to the upstream client (Node's AsyncLocalStorage); none in browsers. */
  requestScope?: RequestScope | undefined
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

/** Namespaces a full node's RPC daemon has; a method of one of these that is not enabled says so. */
export const KNOWN_NAMESPACES = ['eth', 'vendor', 'web3', 'net', 'debug', 'trace', 'txpool', 'sidechain', 'ots', 'parity'] as const

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
  requestScope,
}: CreateRpcHandlerParameters): RpcHandler {
  const byName = new Map(namespaces.map((ns) => [ns.name, ns]))
  const enabledSet = new Set(enabled)

  async function dispatch(method: string, params: unknown, context: CallContext): Promise<unknown> {
    const sep = method.indexOf('_')
    const nsName = sep > 0 ? method.slice(0, sep) : ''
    const ns = byName.get(nsName)
    const known = ns !== undefined || (KNOWN_NAMESPACES as readonly string[]).includes(nsName)
    if (!known) throw new MethodNotFoundRpcError(method)
    if (!enabledSet.has(nsName)) {
      throw new MethodNotFoundRpcError(method, `the ${nsName} namespace is not enabled: add ${nsName} to --http.api`)
    }
    const handler = ns?.methods[method]
    if (handler) return handler(params, context)
    if (ns?.fallback) return ns.fallback(method, params)
    throw new MethodNotFoundRpcError(method)
  }

  const inScope = <value>(deadline: Deadline, work: () => value): value =>
    requestScope ? requestScope.run(deadline, work) : work()

  /** A streamed result is produced after the method returned: still within its call's deadline. */
  const scopedStream = (stream: JsonStream, deadline: Deadline) =>
    new JsonStream((write) => inScope(deadline, () => stream.produce(write)).finally(() => deadline.dispose()))

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
    const deadline = createDeadline(
      requestTimeoutMs,
      // The wording of geth's evmtimeout: the request's deadline and its execution's are one limit.
      () => new ServerRpcError(`execution aborted (timeout = ${formatDuration(requestTimeoutMs)})`),
    )
    try {
      const progress = createCallContext([onProgress, options?.onProgress], { id: id ?? undefined, method }, progressEveryMs)
      const context = withDeadline(progress, deadline, requestTimeoutMs)
      const result = await inScope(deadline, () => dispatch(method, params, context))
      outcome = { result: result instanceof JsonStream ? scopedStream(result, deadline) : result }
      if (!(result instanceof JsonStream)) deadline.dispose()
    } catch (error) {
      deadline.dispose()
      if (!(error instanceof Error) || error.name === 'Error' || error.name === 'TypeError') {
        onInternalError?.(error, method)
      }
      outcome = { error }
    }
    return isNotification ? undefined : response(id ?? null, outcome)
  }

  async function handleMessage(message: unknown, options?: HandleOptions): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    if (!Array.isArray(message)) return handleOne(message, options)
    if (message.length === 0) return response(null, { error: new InvalidRequestRpcError('empty batch') })
    if (message.length > batchLimit) {
      return response(null, {
        error: new ServerRpcError(
          `batch limit ${batchLimit} exceeded (can increase by --rpc.batch.limit). Requested batch of size: ${message.length}`,
        ),
      })
    }
    const results: (JsonRpcResponse | undefined)[] = new Array(message.length)
    let next = 0
    const workers = Array.from({ length: Math.min(batchConcurrency, message.length) }, async () => {
      while (next < message.length) {
        const i = next++
        results[i] = await handleOne(message[i], options)
      }
    })
    await Promise.all(workers)
    const answered = results.filter((r): r is JsonRpcResponse => r !== undefined)
    return answered.length === 0 ? undefined : answered
  }

  /** One response as text; a streamed result is written as it comes, with its error after it if it fails. */
  async function writeResponse(res: JsonRpcResponse, write: ChunkWriter): Promise<void> {
    const result = 'result' in res ? res.result : undefined
    if (!(result instanceof JsonStream)) {
      await write(JSON.stringify(res, bigintReplacer))
      return
    }
    const prefix = `{"jsonrpc":"2.0","id":${JSON.stringify(res.id)},"result":`
    let started = false
    try {
      // Chunks reach `write` in call order (no await between the prefix and the first chunk).
      await result.produce((chunk) => {
        const first = started ? undefined : write(prefix)
        started = true
        const next = write(chunk)
        return first || next ? Promise.all([first, next]).then(() => undefined) : undefined
      })
      await write(started ? '}' : `${prefix}null}`)
    } catch (error) {
      if (!(error instanceof Error) || error.name === 'Error' || error.name === 'TypeError') onInternalError?.(error, 'stream')
      const rpcError = JSON.stringify(toRpcError(error))
      if (started) await write(`,"error":${rpcError}}`)
      else await write(JSON.stringify({ jsonrpc: '2.0', id: res.id, error: JSON.parse(rpcError) }))
    }
  }

  async function handleTextStreaming(text: string, write: ChunkWriter, options?: HandleOptions): Promise<boolean> {
    let message: unknown
    try {
      message = JSON.parse(text)
    } catch {
      await write(JSON.stringify(response(null, { error: new ParseRpcError() })))
      return true
    }
    const out = await handleMessage(message, options)
    if (out === undefined) return false
    if (!Array.isArray(out)) {
      await writeResponse(out, write)
      return true
    }
    await write('[')
    for (let i = 0; i < out.length; i++) {
      if (i > 0) await write(',')
      await writeResponse(out[i]!, write)
    }
    await write(']')
    return true
  }

  async function handleText(text: string, options?: HandleOptions): Promise<string | undefined> {
    const parts: string[] = []
    const owed = await handleTextStreaming(text, (chunk) => {
      parts.push(chunk)
    }, options)
    return owed ? parts.join('') : undefined
  }

  return { handleMessage, handleText, handleTextStreaming, enabled: [...enabled] }
}

function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? `0x${value.toString(16)}` : value
}
