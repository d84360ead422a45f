import { UpstreamRpcError, UpstreamUnavailableError } from '../errors/upstream.js'
import type { Eip1193Provider, Eip1193RequestArguments } from '../types/eip1193.js'
import type { JsonRpcErrorObject } from '../types/jsonRpc.js'
import { createReachability } from './createReachability.js'
import { isRetryableRpcError } from './isRetryableRpcError.js'
import { createUpstreamStats } from './createUpstreamStats.js'
import type { Upstream } from './types.js'

/** `createEip1193Upstream`'s options: the provider, and how its calls are named, retried and logged. */
export type CreateEip1193UpstreamParameters = {
  /** Any EIP-1193 provider: `request({ method, params })` resolving with the JSON-RPC result. */
  provider: Eip1193Provider
  /** What messages and `url` call it (default `eip1193`). */
  name?: string | undefined
  /** Requests in flight at once; the others wait their turn (default 16: a wallet is no node). */
  maxInFlight?: number | undefined
  /** The longest one request is waited for, ms (default 30 s); past it the call fails as unreachable. */
  timeoutMs?: number | undefined
  /**
   * After the provider failed to answer (no JSON-RPC error: a dropped connection, a timeout, 4900),
   * calls fail at once for this long instead of asking it again, ms (default 0: every call asks).
   * A fallback list uses it to skip an entry that is down.
   */
  unreachableCooldownMs?: number | undefined
  /** Told when the provider becomes unreachable (false) and reachable again (true). */
  onReachability?: ((reachable: boolean, reason?: string) => void) | undefined
}

/** EIP-1193 provider codes that say the provider cannot reach its chain: 4900 disconnected, 4901 chain disconnected. */
const DISCONNECTED = new Set([4900, 4901])

/**
 * The JSON-RPC error a provider's rejection carries, or undefined when it carries none (a network
 * failure, a timeout): the error itself (a wallet's, viem's `RpcRequestError`), or ethers' nested
 * one (ethers 6 rejects with `{ code: 'UNKNOWN_ERROR', error: { code, message, data } }`, or a
 * mapped error such as CALL_EXCEPTION with the node's in `info.error`).
 * Codes that say "disconnected" (4900, 4901) and rate limits (-32005) are no answer either.
 */
export function jsonRpcErrorOf(err: unknown): JsonRpcErrorObject | undefined {
  const e = err as { error?: unknown; info?: { error?: unknown; info?: { error?: unknown } } } | null
  for (const candidate of [err, e?.error, e?.info?.error, e?.info?.info?.error]) {
    if (typeof candidate !== 'object' || candidate === null) continue
    const { code, message, data } = candidate as { code?: unknown; message?: unknown; data?: unknown }
    if (typeof code !== 'number' || !Number.isInteger(code) || DISCONNECTED.has(code)) continue
    const error = { code, message: typeof message === 'string' ? message : String(message) }
    if (isRetryableRpcError(error)) continue
    // viem's errors (they carry its `version`) keep the node's message as `details`; their message is viem's own words.
    const { version, details } = candidate as { version?: unknown; details?: unknown }
    if (typeof version === 'string' && typeof details === 'string' && details !== '') error.message = details
    return data === undefined ? error : { ...error, data }
  }
  return undefined
}

/** A rejection's message, for the errors that carry no JSON-RPC error (viem's short one, without its lines of help). */
export function failureMessageOf(err: unknown): string {
  const short = (err as { shortMessage?: unknown } | null)?.shortMessage
  if (typeof short === 'string' && short !== '') return short
  return err instanceof Error ? err.message : String(err)
}

/**
 * An upstream over any EIP-1193 provider (a wallet's `window.ethereum`, viem's client, ethers'
 * provider wrapped): every edgetrace read is one `request({ method, params })`, at most
 * `maxInFlight` at once. A rejection with a JSON-RPC error is the node's answer (UpstreamRpcError,
 * code and data kept); one without (a network failure, a timeout, 4900) is UpstreamUnavailableError,
 * which a fallback list falls over on. The provider does its own retries and batching.
 */
export function createEip1193Upstream({
  provider,
  name = 'eip1193',
  maxInFlight = 16,
  timeoutMs = 30_000,
  unreachableCooldownMs = 0,
  onReachability,
}: CreateEip1193UpstreamParameters): Upstream {
  const counter = createUpstreamStats()
  const stats = counter.counts
  const reachability = createReachability({ cooldownMs: unreachableCooldownMs, onReachability })
  let inFlight = 0
  const waiting: (() => void)[] = []
  let closed = false

  async function send(method: string, params: readonly unknown[]): Promise<unknown> {
    while (inFlight >= maxInFlight) await new Promise<void>((resolve) => waiting.push(resolve))
    if (inFlight === 0) stats.roundTrips++
    inFlight++
    stats.requests++
    let timer: ReturnType<typeof setTimeout> | undefined
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(new UpstreamUnavailableError(name, `no answer to ${method} in ${Math.round(timeoutMs / 1000)} s`)),
          timeoutMs,
        )
      })
      const request = provider.request.bind(provider) as (args: Eip1193RequestArguments) => Promise<unknown>
      return await Promise.race([request({ method, params }), timeout])
    } finally {
      clearTimeout(timer)
      inFlight--
      waiting.shift()?.()
    }
  }

  return {
    url: name,
    async request<result>(method: string, params: readonly unknown[] = []): Promise<result> {
      if (closed) throw new UpstreamUnavailableError(name, 'client closed')
      const refusal = reachability.refusal()
      if (refusal !== undefined) throw new UpstreamUnavailableError(name, refusal)
      stats.calls++
      let value: unknown
      try {
        value = await send(method, params)
      } catch (err) {
        const rpc = err instanceof UpstreamUnavailableError ? undefined : jsonRpcErrorOf(err)
        if (rpc !== undefined) {
          reachability.markReachable()
          throw new UpstreamRpcError(method, rpc, { cause: err })
        }
        const reason = err instanceof UpstreamUnavailableError ? err.shortMessage : failureMessageOf(err)
        reachability.markUnreachable(reason)
        throw err instanceof UpstreamUnavailableError
          ? err
          : new UpstreamUnavailableError(name, `${method}: ${reason}`, { cause: err })
      }
      reachability.markReachable()
      return (value === undefined ? null : value) as result
    },
    stats: counter.stats,
    resetStats: counter.resetStats,
    async close() {
      closed = true
    },
  }
}
