import { BaseError } from '../errors/base.js'
import { UpstreamUnavailableError } from '../errors/upstream.js'
import type { Upstream, UpstreamStats } from './types.js'

/** `createFallbackUpstream`'s options: the upstreams in order, and who is told when calls move. */
export type CreateFallbackUpstreamParameters = {
  /** The upstreams in order of preference, all of one chain (each with a cooldown, so one that is down fails at once). */
  upstreams: readonly Upstream[]
  /** Told when calls move to another entry. */
  onLog?: ((line: string) => void) | undefined
}

/**
 * One upstream over several of the same chain, as fallbacks: each call goes to the first entry that
 * answers — an entry that cannot be reached (UpstreamUnavailableError) hands the call to the next;
 * a JSON-RPC error is an answer and is not asked elsewhere. Entries are asked in order every call,
 * so the first is used again once it answers (give each a cooldown, createUpstream's
 * `unreachableCooldownMs`, so one that is down fails at once meanwhile). `url` is the entry that
 * answered last.
 */
export function createFallbackUpstream({ upstreams, onLog }: CreateFallbackUpstreamParameters): Upstream {
  if (upstreams.length === 0) throw new BaseError('createFallbackUpstream: no upstreams given')
  let active = 0
  const fallback: Upstream = {
    get url() {
      return upstreams[active]!.url
    },
    async request<result>(method: string, params?: readonly unknown[]): Promise<result> {
      const failures: string[] = []
      for (let i = 0; i < upstreams.length; i++) {
        const upstream = upstreams[i]!
        try {
          const value = await upstream.request<result>(method, params)
          if (i !== active) {
            onLog?.(`upstream: ${upstream.url} answers${i > 0 ? ` (${failures.join('; ')})` : ' again'}`)
            active = i
          }
          return value
        } catch (err) {
          if (!(err instanceof UpstreamUnavailableError)) throw err
          failures.push(`${upstream.url}: ${err.shortMessage.replace(/^upstream unreachable: /, '')}`)
        }
      }
      throw new UpstreamUnavailableError(
        upstreams.map((u) => u.url).join(', '),
        `no upstream answered ${method} (${failures.join('; ')})`,
      )
    },
    stats() {
      const total: UpstreamStats = { requests: 0, calls: 0, roundTrips: 0, retries: 0 }
      for (const u of upstreams) {
        const s = u.stats()
        total.requests += s.requests
        total.calls += s.calls
        total.roundTrips += s.roundTrips
        total.retries += s.retries
      }
      return total
    },
    resetStats() {
      for (const u of upstreams) u.resetStats()
    },
    async close() {
      await Promise.all(upstreams.map((u) => u.close()))
    },
  }
  return fallback
}
