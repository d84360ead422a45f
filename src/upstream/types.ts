/** Counters read by the benchmark: what executing one request cost at the upstream. */
export type UpstreamStats = {
  /** HTTP requests (or WebSocket frames) sent, retries included. */
  requests: number
  /** JSON-RPC calls carried by those requests (a batch of 5 counts 5). */
  calls: number
  /**
   * Sequential round trips: a request that leaves while no other request is in flight starts a new
   * round trip; requests that overlap an open one ride on it. This is the latency a caller waits.
   */
  roundTrips: number
  /** Requests that were sent again after a retryable failure. */
  retries: number
}

/** An EIP-1193-like client of the upstream node. Every edgetrace read goes through one. */
export type Upstream = {
  /** The upstream URL with credentials (user info, and query values and path segments that look like keys) removed. */
  readonly url: string
  /** One JSON-RPC call to the upstream (batched with others, retried as configured): its result. */
  request<result = unknown>(method: string, params?: readonly unknown[]): Promise<result>
  /** What the calls since the last `resetStats()` cost at the upstream. */
  stats(): UpstreamStats
  /** Starts the `stats()` counters from zero. */
  resetStats(): void
  /** Closes the connection (a WebSocket) and fails the calls still pending. */
  close(): Promise<void>
  /**
   * WebSocket upstreams only: `eth_subscribe(params)`, `onData` getting each notification's result,
   * subscribed again whenever the socket reopens. Resolves with the unsubscribe; rejects as the
   * upstream refuses the subscription.
   */
  subscribe?(params: readonly unknown[], onData: (result: unknown) => void): Promise<() => void>
}

// The types below are used only inside the client (src/upstream): its transports and bookkeeping.

/** A JSON-RPC reply object as the upstream sends it (fields unchecked). */
export type JsonRpcReply = { id?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } }

/** What one request (a single call or a batch) got back: `json` is undefined when the body is not JSON. */
export type Reply = { status: number; retryAfter?: string | null; json: unknown }

/**
 * Carries request bodies to the upstream. `send` resolves with the reply, rejects with a
 * RetryableError for failures worth sending again, and with `signal.reason` once `signal` fires (its
 * attempt was abandoned). `ids` are the ids of the calls in `body`: a WebSocket matches replies by them.
 */
export type Transport = {
  send(body: string, ids: readonly number[], signal: AbortSignal): Promise<Reply>
  close(): Promise<void>
  /** WebSocket only: messages that answer no request (eth_subscription notifications). */
  onNotification?(listener: (message: { method: string; params: unknown }) => void): () => void
  /** WebSocket only: told each time a socket opens after an earlier one dropped (subscriptions are gone). */
  onReopen?(listener: () => void): () => void
}
