import { BaseError } from '../errors/base.js'
import { UpstreamUnavailableError } from '../errors/upstream.js'
import { createBatcher } from './createBatcher.js'
import { createHttpTransport } from './createHttpTransport.js'
import { createReachability } from './createReachability.js'
import { createSlotLimiter } from './createSlotLimiter.js'
import { type WebSocketConstructor, createWebSocketTransport } from './createWebSocketTransport.js'
import { parseRetryAfter } from './parseRetryAfter.js'
import { RetryableError } from './RetryableError.js'
import { redactUrl, redactUrlsIn } from '../utils/redactUrl.js'
import { retryDelay } from './retryDelay.js'
import { type Call, Abandoned, failCalls, settleCall, startAttempt } from './settleCall.js'
import { settleFromReply } from './settleFromReply.js'
import { startCallTimeout } from './startCallTimeout.js'
import { createUpstreamStats } from './createUpstreamStats.js'
import type { Reply, Upstream } from './types.js'

export type { WebSocketConstructor } from './createWebSocketTransport.js'

/** `createUpstream`'s options: the node's URL and how calls to it are sent, retried and logged. */
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
  /** The first retry's delay bound, ms (default 100); each retry doubles it, with full jitter. */
  retryBaseMs?: number
  /** The longest delay before a retry, ms (default 10 s); a Retry-After the upstream sends is honoured. */
  retryMaxMs?: number
  /** HTTP headers sent with every request (an API key); never logged. */
  headers?: Record<string, string>
  /** Told of retries and of an upstream that refuses batches. */
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
  const transport = /^wss?:\/\//i.test(url)
    ? createWebSocketTransport({ url, safeUrl, timeoutMs, webSocket })
    : createHttpTransport({ url, headers, timeoutMs })
  const counter = createUpstreamStats()
  const stats = counter.counts
  const slots = createSlotLimiter({ maxInFlight, onIdleStart: () => stats.roundTrips++ })
  const reachability = createReachability({ cooldownMs: unreachableCooldownMs, onReachability })
  let nextId = 1
  /** Until then calls go one by one (the upstream refused a batch); then batches are tried again. */
  let batchesRefusedUntil = 0
  let closed = false
  const batcher = createBatcher({ maxBatchSize, singly: () => Date.now() < batchesRefusedUntil, send })

  /** Sends the calls (a batch, or a single call) until each is settled: answered, failed, or given up on. */
  async function send(initial: Call[], asBatch: boolean): Promise<void> {
    let calls = initial
    let attempt = 0
    for (;;) {
      calls = calls.filter((c) => !c.settled)
      if (calls.length === 0) return
      if (calls.length === 1) asBatch = false
      const signal = startAttempt(calls).controller.signal
      let failure: RetryableError | undefined
      if (!(await slots.acquire(signal))) return
      stats.requests++
      let reply: Reply | undefined
      try {
        const body = asBatch ? `[${calls.map((c) => c.text).join(',')}]` : calls[0]!.text
        reply = await transport.send(
          body,
          calls.map((c) => c.id),
          signal,
        )
      } catch (err) {
        if (err instanceof Abandoned) return
        // A runtime's error may quote the URL whole (a WebSocket class refusing it): never shown so.
        failure = err instanceof RetryableError ? err : new RetryableError(redactUrlsIn(String(err)))
      } finally {
        slots.release()
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
          onLog?.(
            `upstream ${safeUrl} refuses JSON-RPC batches; sending calls one by one for ${Math.round(batchReprobeMs / 1000)} s`,
          )
          await Promise.all(calls.map((c) => send([c], false)))
          return
        } else if (reply.status >= 400) {
          failCalls(calls, new UpstreamUnavailableError(safeUrl, `HTTP ${reply.status}`, { status: reply.status }))
          return
        } else {
          reachability.markReachable()
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
        if (!closed) reachability.markUnreachable(reason)
        failCalls(
          live,
          new UpstreamUnavailableError(
            safeUrl,
            reason,
            failure!.status !== undefined ? { status: failure!.status } : {},
          ),
        )
        return
      }
      const delay = retryDelay(attempt, failure!.retryAfterMs, { retryBaseMs, retryMaxMs })
      onLog?.(`upstream ${safeUrl}: ${failure!.message}; retrying in ${Math.round(delay)} ms`)
      attempt++
      stats.retries++
      // The wait is an attempt too: calls whose time limit passes meanwhile end it early.
      await sleep(delay, startAttempt(live).controller.signal)
    }
  }

  async function subscribe(params: readonly unknown[], onData: (result: unknown) => void): Promise<() => void> {
    let id: string | undefined
    let active = true
    const start = async () => {
      id = String(await upstream.request<string>('eth_subscribe', params))
    }
    const stopNotes = transport.onNotification!(({ method, params: p }) => {
      const note = p as { subscription?: unknown; result?: unknown } | undefined
      if (active && method === 'eth_subscription' && note?.subscription === id) onData(note?.result)
    })
    const stopReopen = transport.onReopen!(() => {
      if (active)
        start().catch((err: unknown) => onLog?.(`upstream ${safeUrl}: subscription not renewed: ${String(err)}`))
    })
    try {
      await start()
    } catch (err) {
      stopNotes()
      stopReopen()
      throw err
    }
    return () => {
      active = false
      stopNotes()
      stopReopen()
      if (id !== undefined) upstream.request('eth_unsubscribe', [id]).catch(() => undefined)
    }
  }

  const upstream: Upstream = {
    url: safeUrl,
    ...(transport.onNotification ? { subscribe } : {}),
    request<result>(method: string, params: readonly unknown[] = []): Promise<result> {
      if (closed) return Promise.reject(new UpstreamUnavailableError(safeUrl, 'client closed'))
      const refusal = reachability.refusal()
      if (refusal !== undefined) return Promise.reject(new UpstreamUnavailableError(safeUrl, refusal))
      const id = nextId++
      let text: string
      try {
        text = JSON.stringify({ jsonrpc: '2.0', id, method, params })
      } catch (err) {
        return Promise.reject(
          new BaseError(`${method} cannot be sent to the upstream: its parameters cannot be serialised`, {
            cause: err,
          }),
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
          startCallTimeout(call, callTimeoutMs, (reason) => {
            onLog?.(`upstream ${safeUrl}: ${reason}`)
            settleCall(call, { error: new UpstreamUnavailableError(safeUrl, reason) })
          })
        }
        batcher.enqueue(call)
      })
    },
    stats: counter.stats,
    resetStats: counter.resetStats,
    async close() {
      closed = true
      await transport.close()
    },
  }
  return upstream
}

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
