import { Counter, Gauge, type Registry } from 'prom-client'
import type { QueueJobCounts, QueueRangeWorkers, QueueWorker } from './createQueueWorkers.js'

/** How long a scrape waits for the queue's Redis to count its jobs, ms. */
export const QUEUE_DEPTH_TIMEOUT_MS = 500

/** What /metrics reads of the work queue: the owner's side (always there with it) and the worker's (`--queue.work`). */
export type QueueMetricsSource = {
  owner: Pick<QueueRangeWorkers, 'jobCounts' | 'stats'>
  worker?: Pick<QueueWorker, 'stats'> | undefined
}

/**
 * Registers the work queue's metrics (`--queue.redis`, `--queue.work`), read when scraped:
 * `edgetrace_queue_jobs{state}` — the chain's queue's depth (waiting, active, delayed), from Redis
 * within `timeoutMs` (absent from a scrape Redis did not answer in time: /metrics never waits on it
 * longer) — and counters of the stretches this process put on the queue, took from it (with
 * `--queue.work`) and that failed (`side`: put here and came back failed, or taken here and failed
 * to run).
 */
export function addQueueMetrics(
  registry: Registry,
  { owner, worker }: QueueMetricsSource,
  timeoutMs = QUEUE_DEPTH_TIMEOUT_MS,
): void {
  new Gauge({
    name: 'edgetrace_queue_jobs',
    help: "The work queue's stretches by state (waiting, active, delayed); absent when its Redis did not answer the scrape in time.",
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const counts = await owner.jobCounts(timeoutMs)
      this.reset()
      if (counts)
        for (const state of Object.keys(counts) as (keyof QueueJobCounts)[]) this.set({ state }, counts[state])
    },
  })
  // Counters kept by the queue's sides as plain numbers, read when scraped.
  const counter = (name: string, help: string, read: () => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset()
        this.inc(read())
      },
    })
  counter('edgetrace_queue_put_total', 'Stretches this process put on the work queue.', () => owner.stats().put)
  if (worker)
    counter(
      'edgetrace_queue_taken_total',
      'Stretches this process took from the work queue (--queue.work).',
      () => worker.stats().taken,
    )
  new Counter({
    name: 'edgetrace_queue_failed_total',
    help: 'Stretches that failed: put here and came back failed (side put), or taken here and failed to run (side taken).',
    labelNames: ['side'] as const,
    registers: [registry],
    collect() {
      this.reset()
      this.inc({ side: 'put' }, owner.stats().failed)
      if (worker) this.inc({ side: 'taken' }, worker.stats().failed)
    },
  })
}
