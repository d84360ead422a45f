import type { Engine } from '../exec/createEngine.js'
import { redactUrl, redactUrlsIn } from '../utils/redactUrl.js'

export type HealthReport = {
  status: 'ok' | 'unavailable'
  /** The process serves (always true in an answer). */
  live: true
  /** The upstream answered, and the head resolved through the anchor (the light client in trust mode consensus), within `timeoutMs`. */
  ready: boolean
  upstream: string
  head: { number: number; hash: string } | null
  /** Why not ready. */
  error?: string
  /** The cache's tiers, and whether the shared one answers. */
  cache: { tiers: string[]; sharedHealthy?: boolean }
}

/**
 * GET /health for a load balancer: live while the process serves; ready when the head resolves —
 * the upstream reached and the anchor current (in trust mode consensus the light client's head, so a
 * beacon node gone stale makes the server not ready). One probe at a time, its result kept for
 * `cacheMs`, so frequent polling costs the upstream at most one head per `cacheMs`.
 */
export function createHealth(
  engine: Engine,
  {
    timeoutMs = 2_000,
    cacheMs = 1_000,
    sharedHealthy,
  }: { timeoutMs?: number; cacheMs?: number; sharedHealthy?: () => boolean } = {},
): () => Promise<HealthReport> {
  let last: { at: number; report: Promise<HealthReport> } | undefined
  async function probe(): Promise<HealthReport> {
    const tiers = ['memory', ...(engine.persistent ? [engine.persistent.store.tier ?? 'persistent'] : [])]
    const cache = { tiers, ...(sharedHealthy ? { sharedHealthy: sharedHealthy() } : {}) }
    const base = { live: true as const, upstream: redactUrl(engine.upstream.url), cache }
    let timer: ReturnType<typeof setTimeout> | undefined
    try {
      const head = await Promise.race([
        engine.headers.resolve({ kind: 'tag', tag: 'latest' }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`the head did not resolve within ${timeoutMs} ms`)), timeoutMs)
        }),
      ])
      return { status: 'ok', ready: true, ...base, head: { number: Number(head.number), hash: head.hash } }
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err)
      return { status: 'unavailable', ready: false, ...base, head: null, error: redactUrlsIn(error).slice(0, 300) }
    } finally {
      clearTimeout(timer)
    }
  }
  return () => {
    const now = Date.now()
    if (!last || now - last.at > cacheMs) last = { at: now, report: probe() }
    return last.report
  }
}
