import { BaseError } from '../errors/base.js'
import { UpstreamRpcError, UpstreamUnavailableError } from '../errors/upstream.js'
import { formatDuration } from '../utils/formatDuration.js'
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
  /** After the upstream refused a batch, calls go one by one for this long, then batches are tried again, ms (default 60 s). */
  batchReprobeMs?: number
  /**
   * The longest any call is waited for, retries included, ms (the Node server passes
   * `--rpc.evmtimeout`: no request may take longer). Past it the call fails, and a request whose
   * calls all failed so is aborted and frees its slot. Default: none (bounded by `timeoutMs` and
   * `retries` only).
   */
  callTimeoutMs?: number | undefined
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
  /** The call's JSON text, made once when it is asked: a call that cannot be serialised fails alone. */
  text: string
  askedAt: number
  settled: boolean
  resolve: (value: unknown) => void
  reject: (err: unknown) => void
  /** Clears the call's own time limit once settled. */
  detach?: () => void
  /** The attempt now carrying the call: abandoned once every call it carries is settled. */
  attempt?: Attempt | undefined
}

/** One try at sending some calls: abandoned (slot freed, request aborted) once all of them are settled. */
type Attempt = { calls: Call[]; controller: AbortController }

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

/** Every call of the attempt was settled elsewhere (its deadline passed): nobody waits for the answer. */
class Abandoned extends Error {}

type JsonRpcReply = { id?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } }

/** JSON-RPC errors that say "later" (EIP-1474 limit exceeded, providers' rate limits): sent again. */
function isRetryableRpcError(error: { code?: unknown; message?: unknown }): boolean {
  return error.code === -32005 || (typeof error.message === 'string' && /rate.?limit|too many requests/i.test(error.message))
}

function parseRetryAfter(value: string | null | undefined): number | undefined {
  if (!value) return undefined
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}

const defer: (fn: () => void) => void =
  typeof setImmediate === 'function' ? (fn) => setImmediate(fn) : (fn) => setTimeout(fn, 0)

/** Resolves after `ms`, or at once when `signal` fires. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
  })
}

/**
 * The client every upstream read goes through. Calls issued in the same tick (the same synchronous
 * run and the promise continuations it settles — flushed on setImmediate) leave as one JSON-RPC
 * batch, split at maxBatchSize, up to maxInFlight requests at once. An upstream that refuses a
 * batch gets single calls for a while, then is tried with batches again. 429, 5xx, timeouts,
 * dropped connections, answers that are not JSON and rate-limit errors (-32005) are retried with
 * exponential backoff and full jitter, honouring Retry-After; other JSON-RPC errors are not.
 *
 * No call is waited for longer than `callTimeoutMs`: past it the call fails at once, and a request
 * whose calls all failed so is aborted and frees its slot — a hung upstream holds nothing longer
 * than a request may take.
 * Each call is serialised on its own, so one call that cannot be sent fails alone, never its batch.
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
  batchReprobeMs = 60_000,
  onReachability,
  callTimeoutMs,
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
  /** Until then calls go one by one (the upstream refused a batch); then batches are tried again. */
  let batchesRefusedUntil = 0
  let inFlight = 0
  const waiting: { wake: () => void; active: boolean }[] = []
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

  function settle(call: Call, outcome: { value: unknown } | { error: unknown }) {
    if (call.settled) return
    call.settled = true
    call.detach?.()
    if ('error' in outcome) call.reject(outcome.error)
    else call.resolve(outcome.value)
    const attempt = call.attempt
    if (attempt && !attempt.controller.signal.aborted && attempt.calls.every((c) => c.settled)) {
      attempt.controller.abort(new Abandoned())
    }
  }
  const fail = (calls: readonly Call[], error: unknown) => {
    for (const c of calls) settle(c, { error })
  }

  /** Waits for a slot; false when the attempt was abandoned meanwhile. */
  async function acquire(signal: AbortSignal): Promise<boolean> {
    while (inFlight >= maxInFlight) {
      if (signal.aborted) return false
      await new Promise<void>((resolve) => {
        const waiter = {
          active: true,
          wake: () => {
            waiter.active = false
            signal.removeEventListener('abort', waiter.wake)
            resolve()
          },
        }
        waiting.push(waiter)
        signal.addEventListener('abort', waiter.wake, { once: true })
      })
    }
    if (signal.aborted) return false
    if (inFlight === 0) stats.roundTrips++
    inFlight++
    return true
  }
  function release() {
    inFlight--
    for (let w = waiting.shift(); w; w = waiting.shift()) {
      if (!w.active) continue
      w.wake()
      break
    }
  }

  // ---- transports -------------------------------------------------------------------------
  async function postHttp(body: string, signal: AbortSignal): Promise<Reply> {
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(new RetryableError(`request timed out after ${timeoutMs} ms`)), timeoutMs)
    const abandon = () => controller.abort(signal.reason)
    signal.addEventListener('abort', abandon, { once: true })
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
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
      if (controller.signal.aborted) throw controller.signal.reason
      const cause = (err as { cause?: { code?: string; message?: string } }).cause
      throw new RetryableError(`connection failed (${cause?.code ?? cause?.message ?? (err as Error).message})`)
    } finally {
      clearTimeout(timer)
      signal.removeEventListener('abort', abandon)
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

  async function postWs(body: string, ids: number[], signal: AbortSignal): Promise<Reply> {
    if (!socket) {
      socket = openSocket()
      socket.catch(() => (socket = undefined))
    }
    const ws = await socket
    return new Promise<Reply>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer)
        signal.removeEventListener('abort', abandon)
        for (const id of ids) socketWaiters.delete(id)
      }
      const timer = setTimeout(() => {
        done()
        reject(new RetryableError(`request timed out after ${timeoutMs} ms`))
      }, timeoutMs)
      const abandon = () => {
        done()
        reject(signal.reason)
      }
      signal.addEventListener('abort', abandon, { once: true })
      const waiter = {
        resolve: (json: unknown) => {
          done()
          resolve({ status: 200, json })
        },
        reject: (err: unknown) => {
          done()
          reject(err)
        },
      }
      for (const id of ids) socketWaiters.set(id, waiter)
      try {
        ws.send(body)
      } catch {
        waiter.reject(new RetryableError('WebSocket send failed'))
      }
    })
  }

  // ---- one request (single call or batch), with retries ---------------------------------
  /** Settles the calls from the upstream's answer; returns those worth asking again. */
  function settleFromReply(calls: Call[], json: unknown): { again: Call[]; why?: string } {
    const replies = new Map<unknown, JsonRpcReply>()
    for (const r of Array.isArray(json) ? json : [json]) {
      if (r && typeof r === 'object') replies.set((r as JsonRpcReply).id, r as JsonRpcReply)
    }
    // A single call answered with an error that carries no id (a node that could not read the
    // request): that error is the call's answer, not a reply gone missing.
    const lone = calls.length === 1 && !Array.isArray(json) ? (json as JsonRpcReply) : undefined
    if (lone && lone.error && typeof lone.error === 'object' && (lone.id === null || lone.id === undefined)) {
      replies.set(calls[0]!.id, lone)
    }
    const again: Call[] = []
    let why: string | undefined
    for (const call of calls) {
      const reply = replies.get(call.id)
      if (!reply) {
        again.push(call)
        why ??= `no reply to ${call.method} in the upstream's answer`
      } else if (reply.error && typeof reply.error === 'object') {
        if (isRetryableRpcError(reply.error)) {
          again.push(call)
          why ??= `${call.method}: ${String(reply.error.message)} (${String(reply.error.code)})`
        } else settle(call, { error: new UpstreamRpcError(call.method, reply.error) })
      } else settle(call, { value: reply.result === undefined ? null : reply.result })
    }
    return why === undefined ? { again } : { again, why }
  }

  async function send(initial: Call[], asBatch: boolean): Promise<void> {
    let calls = initial
    let attempt = 0
    for (;;) {
      calls = calls.filter((c) => !c.settled)
      if (calls.length === 0) return
      if (calls.length === 1) asBatch = false
      const current: Attempt = { calls, controller: new AbortController() }
      for (const c of calls) c.attempt = current
      const signal = current.controller.signal
      let failure: RetryableError | undefined
      if (!(await acquire(signal))) return
      stats.requests++
      let reply: Reply | undefined
      try {
        const body = asBatch ? `[${calls.map((c) => c.text).join(',')}]` : calls[0]!.text
        reply = isWs ? await postWs(body, calls.map((c) => c.id), signal) : await postHttp(body, signal)
      } catch (err) {
        if (err instanceof Abandoned) return
        failure = err instanceof RetryableError ? err : new RetryableError(String(err))
      } finally {
        release()
      }
      if (reply) {
        if (reply.status === 429 || reply.status >= 500) {
          failure = new RetryableError(`HTTP ${reply.status}`, parseRetryAfter(reply.retryAfter), reply.status)
        } else if (reply.json === undefined && reply.status < 400) {
          // Cut short or garbled on the way: nothing says the upstream refused anything.
          failure = new RetryableError(`HTTP ${reply.status} with an answer that is not JSON`, undefined, reply.status)
        } else if (asBatch && (reply.status >= 400 || !Array.isArray(reply.json))) {
          // The upstream does not take batches: one call per request for a while.
          batchesRefusedUntil = Date.now() + batchReprobeMs
          onLog?.(`upstream ${safeUrl} refuses JSON-RPC batches; sending calls one by one for ${Math.round(batchReprobeMs / 1000)} s`)
          await Promise.all(calls.map((c) => send([c], false)))
          return
        } else if (reply.status >= 400) {
          fail(calls, new UpstreamUnavailableError(safeUrl, `HTTP ${reply.status}`, { status: reply.status }))
          return
        } else {
          markReachable()
          const { again, why } = settleFromReply(calls, reply.json)
          if (again.length === 0) return
          calls = again
          failure = new RetryableError(why ?? 'no answer')
        }
      }
      const live = calls.filter((c) => !c.settled)
      if (live.length === 0) return
      if (closed || attempt >= retries) {
        const reason = `${failure!.message} (after ${attempt + 1} attempts)`
        if (!closed) markUnreachable(reason)
        fail(live, new UpstreamUnavailableError(safeUrl, reason, failure!.status !== undefined ? { status: failure!.status } : {}))
        return
      }
      const backoff = Math.random() * Math.min(retryMaxMs, retryBaseMs * 2 ** attempt)
      const delay = Math.min(retryMaxMs, failure!.retryAfterMs ?? backoff)
      onLog?.(`upstream ${safeUrl}: ${failure!.message}; retrying in ${Math.round(delay)} ms`)
      attempt++
      stats.retries++
      const waitFor: Attempt = { calls: live, controller: new AbortController() }
      for (const c of live) c.attempt = waitFor
      await sleep(delay, waitFor.controller.signal)
    }
  }

  function flush() {
    scheduled = false
    const calls = queue.filter((c) => !c.settled)
    queue = []
    if (calls.length === 0) return
    if (Date.now() < batchesRefusedUntil || calls.length === 1) {
      for (const call of calls) void send([call], false)
      return
    }
    for (let i = 0; i < calls.length; i += maxBatchSize) void send(calls.slice(i, i + maxBatchSize), true)
  }

  function elapsed(call: Call) {
    return `${((Date.now() - call.askedAt) / 1000).toFixed(1)} s`
  }

  return {
    url: safeUrl,
    request<result>(method: string, params: readonly unknown[] = []): Promise<result> {
      if (closed) return Promise.reject(new UpstreamUnavailableError(safeUrl, 'client closed'))
      if (!reachable && Date.now() < unreachableUntil) {
        return Promise.reject(new UpstreamUnavailableError(safeUrl, `${lastFailure}; not asked again for ${Math.ceil((unreachableUntil - Date.now()) / 1000)} s`))
      }
      const id = nextId++
      let text: string
      try {
        text = JSON.stringify({ jsonrpc: '2.0', id, method, params })
      } catch (err) {
        return Promise.reject(
          new BaseError(`${method} cannot be sent to the upstream: its parameters cannot be serialised`, { cause: err }),
        )
      }
      return new Promise<result>((resolve, reject) => {
        stats.calls++
        const call: Call = {
          id,
          method,
          text,
          askedAt: Date.now(),
          settled: false,
          resolve: resolve as (v: unknown) => void,
          reject,
        }
        if (callTimeoutMs !== undefined) {
          const timer = setTimeout(() => {
            const reason = `no answer to ${method} within ${formatDuration(callTimeoutMs)} (waited ${elapsed(call)})`
            onLog?.(`upstream ${safeUrl}: ${reason}`)
            settle(call, { error: new UpstreamUnavailableError(safeUrl, reason) })
          }, callTimeoutMs)
          call.detach = () => clearTimeout(timer)
        }
        queue.push(call)
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
