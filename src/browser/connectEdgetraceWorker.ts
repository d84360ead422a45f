import { type Endpoint, type Remote, proxy, releaseProxy, wrap } from 'comlink'
import { answerAnchorHead } from '../chain/createRemoteAnchor.js'
import type { ExecutionAnchor } from '../chain/createHeaderStore.js'
import { BaseError } from '../errors/base.js'
import { errorResponseFor } from '../rpc/errorResponseFor.js'
import { cutTooDeepRequests } from '../rpc/jsonDepth.js'
import type { ProgressEvent } from '../types/progress.js'
import type { JsonRpcErrorObject, JsonRpcResponse } from '../types/jsonRpc.js'
import type { EdgetraceConfig, EdgetraceStatus, PageUpstreamBridge } from './createEdgetraceService.js'
import type { EdgetraceEvent, EdgetraceRemote } from './workerProtocol.js'
import type { Eip1193Provider, Eip1193RequestArguments } from '../types/eip1193.js'
import { failureMessageOf, jsonRpcErrorOf } from '../upstream/createEip1193Upstream.js'

/**
 * The page's side of the worker's calls of the page's providers: each call asked of its provider,
 * the answer as a value (comlink would drop an error's fields) — the result, the JSON-RPC error the
 * rejection carries (code, message, data), or a failure that carries none (the provider is unreachable).
 */
function answerPageUpstream(providers: readonly Eip1193Provider[]): PageUpstreamBridge {
  return async (index, method, params) => {
    const provider = providers[index]
    if (!provider) return { failure: `no provider ${index} in the page` }
    try {
      const request = provider.request.bind(provider) as (args: Eip1193RequestArguments) => Promise<unknown>
      const result = await request({ method, params })
      return { result: result === undefined ? null : result }
    } catch (err) {
      const error = jsonRpcErrorOf(err)
      if (error) return { error: { ...error, ...(error.data === undefined ? {} : { data: cloneable(error.data) }) } }
      return { failure: failureMessageOf(err) }
    }
  }
}

/** A JSON-RPC error's data as postMessage can carry it (a provider's may hold functions or class instances). */
function cloneable(data: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(data))
  } catch {
    return String(data)
  }
}

/** edgetrace could not start (the upstream unreachable and never met before, a bad config…). */
export class EdgetraceStartError extends BaseError {
  override name = 'EdgetraceStartError'
  constructor(readonly error: JsonRpcErrorObject) {
    super(error.message)
  }
}

export type EdgetraceClient = {
  /** One JSON-RPC message (single or batch) → the response(s), errors as JSON-RPC error objects. */
  request(
    message: unknown,
    options?: { onProgress?: (event: ProgressEvent) => void },
  ): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined>
  /** One call by method and params → its response envelope. */
  call(
    method: string,
    params?: unknown,
    options?: { onProgress?: (event: ProgressEvent) => void },
  ): Promise<JsonRpcResponse>
  /** Listens to every request's progress, or to the upstream's reachability; returns the unsubscribe. */
  on(type: 'progress', listener: (event: ProgressEvent) => void): () => void
  on(type: 'reachability', listener: (reachable: boolean, reason?: string) => void): () => void
  /** eth_subscription notifications of the subscriptions made with eth_subscribe through this client. */
  on(type: 'notification', listener: (params: { subscription: string; result: unknown }) => void): () => void
  status(): Promise<EdgetraceStatus | undefined>
  flush(): Promise<void>
  clearCache(): Promise<void>
  /** Stops the daemon (and terminates the worker when given one). */
  close(): Promise<void>
  readonly closed: boolean
  /** The status at start. */
  readonly started: EdgetraceStatus
}

/**
 * Connects to the edgetrace worker (worker/edgetrace.worker.ts, or any endpoint `serveEdgetrace`
 * serves) and starts it with `config`. Rejects with EdgetraceStartError when it cannot start.
 */
export async function connectEdgetraceWorker(
  target: Worker | Endpoint,
  config: EdgetraceConfig,
  {
    anchor,
    pageUpstreams,
  }: {
    /** A pool worker's: the starting daemon's anchor, which the worker's blocks resolve through (no light client of its own). */
    anchor?: ExecutionAnchor | undefined
    /**
     * The page's EIP-1193 providers `config.upstream` names as `{ page: i }` (a provider cannot cross
     * postMessage): the worker's calls of entry i are asked of `pageUpstreams[i]` here, in the page.
     */
    pageUpstreams?: readonly Eip1193Provider[] | undefined
  } = {},
): Promise<EdgetraceClient> {
  const remote: Remote<EdgetraceRemote> = wrap<EdgetraceRemote>(target)
  const progressListeners = new Set<(event: ProgressEvent) => void>()
  const notificationListeners = new Set<(params: { subscription: string; result: unknown }) => void>()
  const reachabilityListeners = new Set<(reachable: boolean, reason?: string) => void>()
  const perTicket = new Map<number, (event: ProgressEvent) => void>()
  let nextTicket = 1
  let closed = false

  // A worker whose script fails to load or throws at start reports it only as an `error` event.
  const failed = new Promise<never>((_, reject) => {
    const w = target as Worker
    if (typeof w.terminate !== 'function' || typeof w.addEventListener !== 'function') return
    w.addEventListener(
      'error',
      (e: ErrorEvent) =>
        reject(
          new EdgetraceStartError({
            code: -32603,
            message: `the edgetrace worker failed: ${e.message || 'its script did not load'}`,
          }),
        ),
      { once: true },
    )
  })
  failed.catch(() => undefined)
  const startup = async () => {
    await remote.subscribe(
      proxy((event: EdgetraceEvent) => {
        if (event.type === 'progress') {
          if (event.ticket !== undefined) perTicket.get(event.ticket)?.(event.progress)
          for (const l of progressListeners) l(event.progress)
        } else if (event.type === 'notification') {
          for (const l of notificationListeners) l(event.params)
        } else {
          for (const l of reachabilityListeners) l(event.reachable, event.reason)
        }
      }),
    )
    return remote.start(
      config,
      anchor ? proxy((tag: Parameters<ExecutionAnchor['head']>[0]) => answerAnchorHead(anchor, tag)) : undefined,
      pageUpstreams ? proxy(answerPageUpstream(pageUpstreams)) : undefined,
    )
  }
  let started: Awaited<ReturnType<EdgetraceRemote['start']>>
  try {
    started = await Promise.race([startup(), failed])
  } catch (err) {
    remote[releaseProxy]()
    if (typeof (target as Worker).terminate === 'function') (target as Worker).terminate()
    throw err
  }
  if ('error' in started) {
    remote[releaseProxy]()
    if (typeof (target as Worker).terminate === 'function') (target as Worker).terminate()
    throw new EdgetraceStartError(started.error)
  }

  const disconnected = (message: unknown) => errorResponseFor(message, { code: 4900, message: 'edgetrace is closed' })

  async function request(message: unknown, options?: { onProgress?: (event: ProgressEvent) => void }) {
    if (closed) return disconnected(message)
    const ticket = options?.onProgress ? nextTicket++ : undefined
    if (ticket !== undefined) perTicket.set(ticket, options!.onProgress!)
    try {
      // Structured clone recurses (and throws) on deep input: an over-deep request goes as a stand-in
      // the worker refuses with the same error as the Node server.
      return await remote.request(cutTooDeepRequests(message), ticket)
    } finally {
      if (ticket !== undefined) perTicket.delete(ticket)
    }
  }

  let nextId = 1
  const client: EdgetraceClient = {
    started: started.status,
    get closed() {
      return closed
    },
    request,
    async call(method, params = [], options) {
      const id = nextId++
      const res = await request({ jsonrpc: '2.0', id, method, params }, options)
      return (res ?? disconnected({ id })) as JsonRpcResponse
    },
    on(type: 'progress' | 'reachability' | 'notification', listener: never) {
      const set = (
        type === 'progress'
          ? progressListeners
          : type === 'notification'
            ? notificationListeners
            : reachabilityListeners
      ) as Set<unknown>
      set.add(listener)
      return () => void set.delete(listener)
    },
    status: () => remote.status(),
    flush: () => remote.flush(),
    clearCache: () => remote.clearCache(),
    async close() {
      if (closed) return
      closed = true
      // A worker busy for good (an endless JavaScript tracer) never answers: it is ended after a second.
      await Promise.race([remote.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1000))])
      remote[releaseProxy]()
      if (typeof (target as Worker).terminate === 'function') (target as Worker).terminate()
    },
  }
  return client
}
