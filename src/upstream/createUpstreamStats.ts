import type { Upstream, UpstreamStats } from './types.js'

const zero = (): UpstreamStats => ({ requests: 0, calls: 0, roundTrips: 0, retries: 0 })

/**
 * An upstream's cost counters: `counts` for the upstream to add to, and its `stats()` (a copy) and
 * `resetStats()` (every counter back to zero).
 */
export function createUpstreamStats(): { counts: UpstreamStats } & Pick<Upstream, 'stats' | 'resetStats'> {
  const counts = zero()
  return {
    counts,
    stats: () => ({ ...counts }),
    resetStats() {
      Object.assign(counts, zero())
    },
  }
}
