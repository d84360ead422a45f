import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { Engine } from '../exec/createEngine.js'
import type { SharedTierStats } from '../state/createSharedTier.js'
import { type QueueMetricsSource, addQueueMetrics } from './addQueueMetrics.js'

export type Metrics = {
  /** Counts one answered call (createRpcHandler's onCallDone). */
  onCallDone(call: { method: string; known: boolean; ok: boolean; ms: number }): void
  /** The Prometheus text exposition (GET /metrics). */
  render(): Promise<string>
  readonly contentType: string
}

/**
 * The server's metrics in Prometheus' text format (prom-client, a registry of its own): calls by
 * method and outcome with their latency, and — read when scraped — the upstream's requests, calls and
 * round trips, what was proven, and the cache's hits and misses per tier (memory; the shared tier's
 * reads, hits, writes, entries refused and failures), and with the work queue its depth and the
 * stretches put, taken and failed (addQueueMetrics). A method no namespace has is counted as
 * `other`, so a client cannot grow the label set.
 */
export function createMetrics(engine: Engine, { queue }: { queue?: QueueMetricsSource | undefined } = {}): Metrics {
  const registry = new Registry()
  const calls = new Counter({
    name: 'edgetrace_requests_total',
    help: 'JSON-RPC calls answered, by method and outcome (ok, error).',
    labelNames: ['method', 'outcome'] as const,
    registers: [registry],
  })
  const latency = new Histogram({
    name: 'edgetrace_request_duration_seconds',
    help: 'Time from a call to its answer (or the start of its streamed answer), by method.',
    labelNames: ['method'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  })
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read())
      },
    })
  // Totals read from the engine when scraped (gauges: the counters they read can be reset, as resetStats does).
  gauge(
    'edgetrace_upstream_requests',
    'HTTP requests (or WebSocket frames) sent to the upstream.',
    () => engine.upstream.stats().requests,
  )
  gauge('edgetrace_upstream_calls', 'JSON-RPC calls sent to the upstream.', () => engine.upstream.stats().calls)
  gauge(
    'edgetrace_upstream_round_trips',
    'Sequential round trips to the upstream.',
    () => engine.upstream.stats().roundTrips,
  )
  gauge('edgetrace_proven_accounts', 'Accounts proven against a state root.', () => engine.verified.accountProofs)
  gauge('edgetrace_proven_slots', 'Storage slots proven against a storage root.', () => engine.verified.storageProofs)
  gauge('edgetrace_proven_codes', 'Contract codes checked against their code hash.', () => engine.verified.codes)
  const tier = new Gauge({
    name: 'edgetrace_cache',
    help: 'Cache counters by tier (memory, and the persistent or shared one) and kind (hits, misses, reads, writes, rejected, failures, entries, bytes).',
    labelNames: ['tier', 'kind'] as const,
    registers: [registry],
    collect() {
      const memory = engine.cache.stats()
      for (const kind of ['hits', 'misses', 'entries', 'bytes', 'evictions'] as const)
        this.set({ tier: 'memory', kind }, memory[kind])
      const store = engine.persistent?.store
      if (!store) return
      const s = store.stats() as Partial<SharedTierStats>
      const name = store.tier ?? 'persistent'
      for (const kind of ['reads', 'hits', 'writes', 'rejected', 'failures'] as const)
        if (typeof s[kind] === 'number') this.set({ tier: name, kind }, s[kind])
      this.set({ tier: name, kind: 'misses' }, (s.reads ?? 0) - (s.hits ?? 0))
    },
  })
  void tier
  if (queue) addQueueMetrics(registry, queue)
  return {
    onCallDone({ method, known, ok, ms }) {
      const label = known ? method : 'other'
      calls.inc({ method: label, outcome: ok ? 'ok' : 'error' })
      latency.observe({ method: label }, ms / 1000)
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
  }
}
