import { InvalidRequestRpcError, MethodNotFoundRpcError, ParseRpcError, ServerRpcError } from '../errors/rpc.js'
import { toRpcError } from '../errors/toRpcError.js'
import { type ChunkWriter, JsonStream } from './jsonStream.js'
import { type CallContext, type ProgressSink, createCallContext } from './progress.js'
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
    try {
      const context = createCallContext([onProgress, options?.onProgress], { id: id ?? undefined, method }, progressEveryMs)
      outcome = { result: await dispatch(method, params, context) }
    } catch (error) {
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

  /**
   * One response as text. A streamed result's text is held until the stream writes real content, so a
   * failure before that is a plain error response; after it, the error rides beside the partial
   * result (Erigon's shape).
   */
  async function writeResponse(res: JsonRpcResponse, write: ChunkWriter): Promise<void> {
    const result = 'result' in res ? res.result : undefined
    if (!(result instanceof JsonStream)) {
      await write(JSON.stringify(res, bigintReplacer))
      return
    }
    const head = `{"jsonrpc":"2.0","id":${JSON.stringify(res.id)},`
    const prefix = `${head}"result":`
    let held = ''
    let sent = false
    try {
      // Chunks reach `write` in call order: what is held goes out in the same call as the content after it.
      await result.produce(
        (chunk) => {
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
      if (!(error instanceof Error) || error.name === 'Error' || error.name === 'TypeError') onInternalError?.(error, 'stream')
      const rpcError = JSON.stringify(toRpcError(error))
      await write(sent ? `${held},"error":${rpcError}}` : `${head}"error":${rpcError}}`)
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
