import { UpstreamRpcError, UpstreamUnavailableError } from '../errors/upstream.js'
import { redactUrl } from './redactUrl.js'
import type { Upstream, UpstreamStats } from './types.js'

export type CreateUpstreamParameters = {
  /** http(s):// or ws(s):// */
  url: string
  /** Per request (HTTP request or WebSocket frame), ms. Default 30 s. */
  timeoutMs?: number
  /** Calls per JSON-RPC batch. Default 100. */
  maxBatchSize?: number
  /** Requests in flight at once. Default 8. */
  maxInFlight?: number
  /** Retries after a retryable failure (429, 5xx, timeout, dropped connection). Default 5. */
  retries?: number
  retryBaseMs?: number
  retryMaxMs?: number
  headers?: Record<string, string>
  onLog?: (message: string) => void
  /**
   * The WebSocket class for ws(s):// upstreams; the runtime's global WebSocket by default (Node 20
   * has none: the Node server passes the `ws` package's).
   */
  webSocket?: WebSocketConstructor | undefined
  /**
   * After the upstream proved unreachable (retries exhausted), calls fail at once for this long
   * instead of waiting for retries again, ms (default 0: every call tries). Offline replays in the
   * browser answer from the cache without paying the retries on every miss.
   */
  unreachableCooldownMs?: number
  /** Told when the upstream becomes unreachable (false) and reachable again (true). */
  onReachability?: (reachable: boolean, reason?: string) => void
}

/** The part of the WebSocket class the client uses (browsers' global, or the `ws` package's). */
export type WebSocketConstructor = new (url: string) => {
  send(data: string): void
  close(): void
  readyState: number
  onopen: unknown
  onclose: unknown
  onerror: unknown
  onmessage: unknown
}

type Call = {
  id: number
  method: string
  params: readonly unknown[]
  resolve: (value: unknown) => void
  reject: (err: unknown) => void
}

type Reply = { status: number; retryAfter?: string | null; json: unknown }

/** A failure worth sending again (the request may not have been served). */
class RetryableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
    readonly status?: number,
  ) {
    super(message)
  }
}

type JsonRpcReply = { id?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } }

function parseRetryAfter(value: string | null | undefined): number | undefined {
  if (!value) return undefined
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}

const defer: (fn: () => void) => void =
  typeof setImmediate === 'function' ? (fn) => setImmediate(fn) : (fn) => setTimeout(fn, 0)

/**
 * The client every upstream read goes through. Calls issued in the same tick (the same synchronous
 * run and the promise continuations it settles — flushed on setImmediate) leave as one JSON-RPC
 * batch, split at maxBatchSize, up to maxInFlight requests at once. Upstreams that refuse batches
 * get single calls from then on. 429, 5xx, timeouts and dropped connections are retried with
 * exponential backoff and full jitter, honouring Retry-After; JSON-RPC errors are not retried.
 * The URL's credentials never appear in a message.
 */
export function createUpstream({
  url,
  timeoutMs = 30_000,
  maxBatchSize = 100,
  maxInFlight = 8,
  retries = 5,
  retryBaseMs = 100,
  retryMaxMs = 10_000,
  headers = {},
  onLog,
  webSocket,
  unreachableCooldownMs = 0,
  onReachability,
}: CreateUpstreamParameters): Upstream {
  const safeUrl = redactUrl(url)
  const isWs = /^wss?:\/\//i.test(url)
  // fetch refuses URLs with credentials: user info becomes a Basic Authorization header.
  const parsedUrl = new URL(url)
  if (!isWs && (parsedUrl.username || parsedUrl.password)) {
    const user = decodeURIComponent(parsedUrl.username)
    const pass = decodeURIComponent(parsedUrl.password)
    headers = { authorization: `Basic ${btoa(`${user}:${pass}`)}`, ...headers }
    parsedUrl.username = ''
    parsedUrl.password = ''
    url = parsedUrl.toString()
  }
  const stats: UpstreamStats = { requests: 0, calls: 0, roundTrips: 0, retries: 0 }
  let nextId = 1
  let queue: Call[] = []
  let scheduled = false
  let batchesRejected = false
  let inFlight = 0
  const waiting: (() => void)[] = []
  let closed = false
  let reachable = true
  let unreachableUntil = 0
  let lastFailure = ''

  function markReachable() {
    if (reachable) return
    reachable = true
    unreachableUntil = 0
    onReachability?.(true)
  }
  function markUnreachable(reason: string) {
    lastFailure = reason
    unreachableUntil = Date.now() + unreachableCooldownMs
    if (!reachable) return
    reachable = false
    onReachability?.(false, reason)
  }

  async function acquire() {
    if (inFlight >= maxInFlight) await new Promise<void>((resolve) => waiting.push(resolve))
    if (inFlight === 0) stats.roundTrips++
    inFlight++
  }
  function release() {
    inFlight--
    waiting.shift()?.()
  }

  // ---- transports -------------------------------------------------------------------------
  async function postHttp(body: unknown): Promise<Reply> {
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), timeoutMs)
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: controller.signal,
      })
      const text = await res.text()
      let json: unknown
      try {
        json = text === '' ? undefined : JSON.parse(text)
      } catch {
        json = undefined
      }
      return { status: res.status, retryAfter: res.headers.get('retry-after'), json }
    } catch (err) {
      if (controller.signal.aborted) throw new RetryableError(`request timed out after ${timeoutMs} ms`)
      const cause = (err as { cause?: { code?: string; message?: string } }).cause
      throw new RetryableError(`connection failed (${cause?.code ?? cause?.message ?? (err as Error).message})`)
    } finally {
      clearTimeout(timer)
    }
  }

  type Socket = { send(data: string): void; close(): void; readyState: number }
  let socket: Promise<Socket> | undefined
  const socketWaiters = new Map<number, { resolve: (json: unknown) => void; reject: (err: unknown) => void }>()

  function failSocketWaiters(reason: string) {
    for (const waiter of socketWaiters.values()) waiter.reject(new RetryableError(reason))
    socketWaiters.clear()
  }

  async function openSocket(): Promise<Socket> {
    const Impl = webSocket ?? (globalThis as unknown as { WebSocket?: WebSocketConstructor }).WebSocket
    if (!Impl) throw new UpstreamUnavailableError(safeUrl, 'this runtime has no WebSocket class: pass one as `webSocket`')
    return new Promise<Socket>((resolve, reject) => {
      const ws = new Impl(url)
      const timer = setTimeout(() => {
        ws.close()
        reject(new RetryableError(`WebSocket connect timed out after ${timeoutMs} ms`))
      }, timeoutMs)
      ws.onopen = () => {
        clearTimeout(timer)
        resolve(ws)
      }
      ws.onerror = () => {
        clearTimeout(timer)
        reject(new RetryableError('WebSocket connection failed'))
      }
      ws.onclose = () => {
        clearTimeout(timer)
        socket = undefined
        failSocketWaiters('WebSocket connection dropped')
      }
      ws.onmessage = (event: { data: unknown }) => {
        let json: unknown
        try {
          json = JSON.parse(String(event.data))
        } catch {
          return
        }
        const first = Array.isArray(json) ? (json[0] as JsonRpcReply | undefined) : (json as JsonRpcReply)
        const ids = Array.isArray(json) ? json.map((r: JsonRpcReply) => r?.id) : [first?.id]
        for (const id of ids) {
          const waiter = typeof id === 'number' ? socketWaiters.get(id) : undefined
          if (waiter) {
            for (const other of ids) if (typeof other === 'number') socketWaiters.delete(other)
            waiter.resolve(json)
            return
          }
        }
      }
    })
  }

  async function postWs(body: unknown, ids: number[]): Promise<Reply> {
    if (!socket) {
      socket = openSocket()
      socket.catch(() => (socket = undefined))
    }
    const ws = await socket
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        for (const id of ids) socketWaiters.delete(id)
        reject(new RetryableError(`request timed out after ${timeoutMs} ms`))
      }, timeoutMs)
      const waiter = {
        resolve: (json: unknown) => {
          clearTimeout(timer)
          resolve({ status: 200, json })
        },
        reject: (err: unknown) => {
          clearTimeout(timer)
          reject(err)
        },
      }
      for (const id of ids) socketWaiters.set(id, waiter)
      try {
        ws.send(JSON.stringify(body))
      } catch {
        waiter.reject(new RetryableError('WebSocket send failed'))
      }
    })
  }

  // ---- one request (single call or batch), with retries ---------------------------------
  function toBody(call: Call) {
    return { jsonrpc: '2.0', id: call.id, method: call.method, params: call.params }
  }

  function settle(calls: Call[], json: unknown) {
    const replies = new Map<unknown, JsonRpcReply>()
    for (const r of Array.isArray(json) ? json : [json]) {
      if (r && typeof r === 'object') replies.set((r as JsonRpcReply).id, r as JsonRpcReply)
    }
    for (const call of calls) {
      const reply = replies.get(call.id)
      if (!reply) call.reject(new UpstreamUnavailableError(safeUrl, `no reply to ${call.method} in the upstream's answer`))
      else if (reply.error) call.reject(new UpstreamRpcError(call.method, reply.error))
      else call.resolve(reply.result === undefined ? null : reply.result)
    }
  }

  async function send(calls: Call[], asBatch: boolean): Promise<void> {
    const body = asBatch ? calls.map(toBody) : toBody(calls[0]!)
    const ids = calls.map((c) => c.id)
    let attempt = 0
    for (;;) {
      await acquire()
      stats.requests++
      let reply: Reply | undefined
      let failure: RetryableError | undefined
      try {
        reply = isWs ? await postWs(body, ids) : await postHttp(body)
      } catch (err) {
        failure = err instanceof RetryableError ? err : new RetryableError(String(err))
      } finally {
        release()
      }
      if (reply) {
        if (reply.status === 429 || reply.status >= 500) {
          failure = new RetryableError(`HTTP ${reply.status}`, parseRetryAfter(reply.retryAfter), reply.status)
        } else if (asBatch && (reply.status >= 400 || !Array.isArray(reply.json))) {
          // The upstream does not take batches: from now on, one call per request.
          batchesRejected = true
          onLog?.(`upstream ${safeUrl} refuses JSON-RPC batches; sending calls one by one`)
          await Promise.all(calls.map((c) => send([c], false)))
          return
        } else if (reply.status >= 400 || reply.json === undefined) {
          const err = new UpstreamUnavailableError(safeUrl, `HTTP ${reply.status}`, { status: reply.status })
          for (const c of calls) c.reject(err)
          return
        } else {
          markReachable()
          settle(calls, reply.json)
          return
        }
      }
      if (closed || attempt >= retries) {
        const err = new UpstreamUnavailableError(safeUrl, `${failure!.message} (after ${attempt + 1} attempts)`, {
          ...(failure!.status !== undefined ? { status: failure!.status } : {}),
        })
        if (!closed) markUnreachable(`${failure!.message} (after ${attempt + 1} attempts)`)
        for (const c of calls) c.reject(err)
        return
      }
      const backoff = Math.random() * Math.min(retryMaxMs, retryBaseMs * 2 ** attempt)
      const delay = Math.min(retryMaxMs, failure!.retryAfterMs ?? backoff)
      onLog?.(`upstream ${safeUrl}: ${failure!.message}; retrying in ${Math.round(delay)} ms`)
      attempt++
      stats.retries++
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
  }

  function flush() {
    scheduled = false
    const calls = queue
    queue = []
    if (batchesRejected || calls.length === 1) {
      for (const call of calls) void send([call], false)
      return
    }
    for (let i = 0; i < calls.length; i += maxBatchSize) void send(calls.slice(i, i + maxBatchSize), true)
  }

  return {
    url: safeUrl,
    request<result>(method: string, params: readonly unknown[] = []): Promise<result> {
      if (closed) return Promise.reject(new UpstreamUnavailableError(safeUrl, 'client closed'))
      if (!reachable && Date.now() < unreachableUntil) {
        return Promise.reject(new UpstreamUnavailableError(safeUrl, `${lastFailure}; not asked again for ${Math.ceil((unreachableUntil - Date.now()) / 1000)} s`))
      }
      return new Promise<result>((resolve, reject) => {
        stats.calls++
        queue.push({ id: nextId++, method, params, resolve: resolve as (v: unknown) => void, reject })
        if (!scheduled) {
          scheduled = true
          defer(flush)
        }
      })
    },
    stats: () => ({ ...stats }),
    resetStats() {
      stats.requests = 0
      stats.calls = 0
      stats.roundTrips = 0
      stats.retries = 0
    },
    async close() {
      closed = true
      const s = socket
      socket = undefined
      if (s) (await s.catch(() => undefined))?.close()
    },
  }
}
