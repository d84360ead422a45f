import { expect, it } from 'vitest'
import { createUpstreamStats } from './createUpstreamStats.js'

it('stats() is a copy of the counts; resetStats() sets every counter back to zero', () => {
  const { counts, stats, resetStats } = createUpstreamStats()
  expect(stats()).toEqual({ requests: 0, calls: 0, roundTrips: 0, retries: 0 })
  counts.requests += 3
  counts.calls += 10
  counts.roundTrips++
  counts.retries += 2
  const seen = stats()
  expect(seen).toEqual({ requests: 3, calls: 10, roundTrips: 1, retries: 2 })
  seen.requests = 99
  expect(stats().requests).toBe(3)
  resetStats()
  expect(stats()).toEqual({ requests: 0, calls: 0, roundTrips: 0, retries: 0 })
  expect(seen).toEqual({ requests: 99, calls: 10, roundTrips: 1, retries: 2 })
  // The upstream keeps counting into the same object after a reset.
  counts.calls++
  expect(stats()).toEqual({ requests: 0, calls: 1, roundTrips: 0, retries: 0 })
})
