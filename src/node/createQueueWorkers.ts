import { getMaxListeners, setMaxListeners } from 'node:events'
import { type ConnectionOptions, type Job, Queue, QueueEvents, Worker } from 'bullmq'
import type { RangeWorkers } from '../types/rangeWorkers.js'

/** The queue of one chain's stretches: processes of other chains on the same Redis never take them. */
export const queueNameFor = (chainId: bigint) => `edgetrace-ranges-${chainId}`

/** BullMQ's connection from a redis:// or rediss:// URL (blocking commands: no per-request retry cap). */
export function queueConnection(url: string): ConnectionOptions {
  const u = new URL(url)
  const db = u.pathname.replace(/^\//, '')
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : 6379,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  }
}

export type QueueRangeWorkers = RangeWorkers & { close(): Promise<void> }

/**
 * The owner's side of the shared work queue (`--queue.redis`, BullMQ): a range's stretches go on
 * the chain's queue, any process started with `--queue.work` takes them (startQueueWorker), and
 * each result comes back to this process, which streams them in order as with its own threads
 * (fanOutRange). A stretch whose worker dies is re-run elsewhere (BullMQ's stalled-job recovery);
 * a request that ends (its client gone, its deadline) removes its stretches still waiting.
 */
export function createQueueWorkers({
  url,
  chainId,
  size = 6,
  minBlocks = 64,
}: {
  url: string
  chainId: bigint
  /** Stretches of one range in flight at once (default 6): about the fleet's worker threads. */
  size?: number
  minBlocks?: number
}): QueueRangeWorkers {
  const connection = queueConnection(url)
  const name = queueNameFor(chainId)
  const queue = new Queue(name, { connection })
  const events = new QueueEvents(name, { connection })
  // Connection trouble is reported through the requests that wait on it, never as an unhandled 'error'.
  queue.on('error', () => {})
  events.on('error', () => {})
  // Each stretch waited on holds a listener on both until it answers: as many as the ranges in flight
  // have stretches (bounded by `size` per range), which is no leak.
  queue.setMaxListeners(0)
  events.setMaxListeners(0)
  const ready = events.waitUntilReady()
  return {
    size,
    minBlocks,
    async run(text, signal) {
      signal?.throwIfAborted()
      // A range keeps up to 2 × size stretches in flight on its one signal, each listening on it.
      if (signal) setMaxListeners(Math.max(getMaxListeners(signal), 4 * size + 10), signal)
      let job: Job | undefined
      let onAbort: (() => void) | undefined
      const aborted = new Promise<never>((_, reject) => {
        if (!signal) return
        onAbort = () => {
          // Still waiting: taken off the queue (one being run is left to finish, its answer unread).
          job?.remove().catch(() => {})
          reject(signal.reason ?? new Error('aborted'))
        }
        if (signal.aborted) onAbort()
        else signal.addEventListener('abort', onAbort, { once: true })
      })
      aborted.catch(() => {})
      try {
        // Reaching Redis and adding are bounded by the request too: a Redis that does not answer costs
        // it its deadline, never more.
        await Promise.race([ready, aborted])
        const added = queue.add(
          'stretch',
          { text },
          // Kept until taken: a stretch runs until it answers, re-run when its worker dies (stalled).
          { removeOnComplete: true, removeOnFail: true, attempts: 1 },
        )
        // Added after the request ended: taken off again.
        added.then((j) => (signal?.aborted ? j.remove() : undefined)).catch(() => {})
        job = await Promise.race([added, aborted])
        return (await Promise.race([job.waitUntilFinished(events), aborted])) as string
      } finally {
        // The range's one signal is shared by all its stretches: each takes its listener off when done.
        if (signal && onAbort) signal.removeEventListener('abort', onAbort)
      }
    },
    hasFree: () => false,
    warmUp() {},
    async close() {
      await Promise.allSettled([events.close(), queue.close()])
    },
  }
}

/**
 * A process's side as a worker of the queue (`--queue.work`): it takes stretches of its chain's
 * queue and runs each on `run` (its own worker threads), `concurrency` at a time. A worker killed
 * mid-stretch holds it for `lockMs` at most; then another worker runs it again.
 */
export function startQueueWorker({
  url,
  chainId,
  concurrency,
  lockMs = 30_000,
  run,
}: {
  url: string
  chainId: bigint
  concurrency: number
  lockMs?: number
  run: (text: string) => Promise<string>
}): { close(): Promise<void> } {
  const worker = new Worker(queueNameFor(chainId), async (job) => run((job.data as { text: string }).text), {
    connection: queueConnection(url),
    concurrency,
    lockDuration: lockMs,
    stalledInterval: Math.max(1_000, Math.floor(lockMs / 2)),
    maxStalledCount: 3,
  })
  worker.on('error', () => {})
  return { close: () => worker.close() }
}
