import { InvalidParamsRpcError } from '../errors/rpc.js'
import type { Eip1193Provider } from '../types/eip1193.js'
import { createEip1193Upstream } from './createEip1193Upstream.js'
import { createFallbackUpstream } from './createFallbackUpstream.js'
import { type WebSocketConstructor, createUpstream } from './createUpstream.js'
import type { Upstream } from './types.js'

/** One upstream as a library user names it: a URL, an EIP-1193 provider, or an upstream client made already (createUpstream). */
export type UpstreamSource = string | Eip1193Provider | Upstream

/** An upstream, or a list of them as fallbacks (the first that answers is used). */
export type UpstreamOption = UpstreamSource | readonly UpstreamSource[]

export type ResolveUpstreamSettings = {
  /** The WebSocket class for ws(s):// URLs (Node 20 has no global one). */
  webSocket?: WebSocketConstructor | undefined
  /** Per request, ms (createUpstream's and createEip1193Upstream's `timeoutMs`). */
  timeoutMs?: number | undefined
  /** Retries of a URL's requests; default createUpstream's 5 for one upstream, 1 for each entry of a list. */
  retries?: number | undefined
  /** How long an entry that proved unreachable fails at once; default 0 for one upstream, 30 s for each entry of a list. */
  unreachableCooldownMs?: number | undefined
  /** The longest any call is waited for, retries included, ms. */
  callTimeoutMs?: number | undefined
  /** HTTP headers sent to every http(s):// URL (an API key). */
  headers?: Record<string, string> | undefined
  onLog?: ((line: string) => void) | undefined
  /** Told when the upstream (for a list: all of it) becomes unreachable, and reachable again. */
  onReachability?: ((reachable: boolean, reason?: string) => void) | undefined
}

const URL_PATTERN = /^(https?|wss?):\/\/[^\s/]+/i

/** An upstream client already made (createUpstream's): it counts its requests, which no EIP-1193 provider does. */
export function isUpstream(value: unknown): value is Upstream {
  const u = value as Partial<Upstream> | null
  return (
    typeof u === 'object' &&
    u !== null &&
    typeof u.request === 'function' &&
    typeof u.stats === 'function' &&
    typeof u.resetStats === 'function' &&
    typeof u.close === 'function'
  )
}

const describeValue = (value: unknown) =>
  typeof value === 'string'
    ? JSON.stringify(value)
    : value === null
      ? 'null'
      : Array.isArray(value)
        ? 'an array'
        : typeof value

/**
 * The upstream client for what a library user named: a URL (http, https, ws, wss) becomes
 * createUpstream's client, an EIP-1193 provider createEip1193Upstream's, an upstream client is
 * taken as it is, and a list becomes createFallbackUpstream over its entries (each with a cooldown,
 * so an entry that is down is skipped at once). Anything else is refused (-32602) naming the entry.
 */
export function resolveUpstream(option: UpstreamOption, settings: ResolveUpstreamSettings = {}): Upstream {
  const list = Array.isArray(option)
  const entries: readonly unknown[] = list ? option : [option]
  if (entries.length === 0) {
    throw new InvalidParamsRpcError('invalid upstream: an empty list (give at least one URL or EIP-1193 provider)')
  }
  entries.forEach((entry, i) => {
    const ok =
      (typeof entry === 'string' && URL_PATTERN.test(entry)) ||
      (typeof entry === 'object' && entry !== null && typeof (entry as Eip1193Provider).request === 'function')
    if (!ok)
      throw new InvalidParamsRpcError(
        `invalid upstream${list ? `[${i}]` : ''}: expected an http(s):// or ws(s):// URL or an EIP-1193 provider (an object with request({ method, params })), got ${describeValue(entry)}`,
      )
  })
  const reachable = entries.map(() => true)
  let anyReachable = true
  const reachabilityOf = (i: number) =>
    settings.onReachability === undefined
      ? undefined
      : (now: boolean, reason?: string) => {
          reachable[i] = now
          const any = reachable.some(Boolean)
          if (any === anyReachable) return
          anyReachable = any
          settings.onReachability!(any, reason)
        }
  const upstreams = (entries as readonly UpstreamSource[]).map((entry, i): Upstream => {
    if (typeof entry === 'string') {
      return createUpstream({
        url: entry,
        webSocket: settings.webSocket,
        ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
        ...(settings.retries !== undefined || list ? { retries: settings.retries ?? 1 } : {}),
        unreachableCooldownMs: settings.unreachableCooldownMs ?? (list ? 30_000 : 0),
        ...(settings.headers ? { headers: settings.headers } : {}),
        ...(settings.onLog ? { onLog: settings.onLog } : {}),
        ...(reachabilityOf(i) ? { onReachability: reachabilityOf(i)! } : {}),
        callTimeoutMs: settings.callTimeoutMs,
      })
    }
    if (isUpstream(entry)) return entry
    return createEip1193Upstream({
      provider: entry,
      name: list ? `eip1193[${i}]` : 'eip1193',
      timeoutMs: settings.timeoutMs,
      unreachableCooldownMs: settings.unreachableCooldownMs ?? (list ? 30_000 : 0),
      onReachability: reachabilityOf(i),
    })
  })
  return list ? createFallbackUpstream({ upstreams, onLog: settings.onLog }) : upstreams[0]!
}
