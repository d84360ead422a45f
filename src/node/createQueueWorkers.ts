import { randomUUID } from 'node:crypto'
import { type EventEmitter, getMaxListeners, setMaxListeners } from 'node:events'
import { type ConnectionOptions, type Job, Queue, QueueEvents, Worker } from 'bullmq'
import { WorkerDeclinedError } from '../errors/execution.js'
import type { RangeWorkers } from '../types/rangeWorkers.js'

/** How long closing the owner's side waits for Redis, ms. */
const CLOSE_TIMEOUT_MS = 2_000
/** How often the owner counts the processes taking from the queue (for heavy calls), ms. */
const WORKERS_POLL_MS = 3_000
/**
 * The largest answer that comes back over the queue (it sits in Redis until read): a larger one is
 * given back, and the call runs on the process that owns it (WorkerDeclinedError).
 */
export const MAX_QUEUE_ANSWER_CHARS = 128 * 1024 * 1024
/** How a worker's failure says it gave the call back (its answer over MAX_QUEUE_ANSWER_CHARS). */
const DECLINED = 'declined: an answer of'

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

/** The queue's jobs by state, as BullMQ counts them (waiting: `wait`). */
export type QueueJobCounts = { waiting: number; active: number; delayed: number }

export type QueueRangeWorkers = RangeWorkers & {
  /**
   * The chain's queue's jobs by state, or undefined when Redis did not answer within `timeoutMs`
   * (one read at a time: a scrape while one is still out waits on that one).
   */
  jobCounts(timeoutMs: number): Promise<QueueJobCounts | undefined>
  /**
   * Stretches this process put on the queue, and of them those that came back failed (a worker's
   * run failed, or it stalled too often; a request's own end is not counted).
   */
  stats(): { put: number; failed: number }
  close(): Promise<void>
}

/**
 * The owner's side of the shared work queue (`--queue.redis`, BullMQ): a range's stretches go on
 * the chain's queue, any process started with `--queue.work` takes them (startQueueWorker), and
 * each result comes back to this process, which streams them in order as with its own threads
 * (fanOutRange). A stretch whose worker dies is re-run elsewhere (BullMQ's stalled-job recovery);
 * a request that ends (its client gone, its deadline) removes its stretches still waiting.
 *
 * Single heavy calls (a whole block traced while this process already runs one: spreadHeavyCall)
 * go on the queue too while a process takes from it (counted every few seconds) and fewer than
 * `size` of this process's jobs are out: a batch of block traces (an explorer's back end) is then
 * spread over the fleet. An answer too large to come back over Redis is given back and run here.
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
  // What BullMQ emits beside its typed events: each job's end (`completed:<id>`, `failed:<id>`).
  const jobEnds = events as unknown as EventEmitter
  // The stretches waited on, each failed when this side closes.
  const waiting = new Set<(args: { failedReason?: string }) => void>()
  let put = 0
  let failed = 0
  let counting: Promise<QueueJobCounts> | undefined
  /** This process's jobs out now (ranges' stretches and heavy calls). */
  let out = 0
  /** The processes taking from the queue at the last count (0 until one is seen, or Redis fails). */
  let takers = 0
  let polling: ReturnType<typeof setInterval> | undefined
  const countTakers = () => {
    queue.getWorkersCount().then(
      (n) => {
        takers = n
      },
      () => {
        takers = 0
      },
    )
  }
  return {
    size,
    minBlocks,
    async run(text, signal) {
      signal?.throwIfAborted()
      // A range keeps up to 2 × size stretches in flight on its one signal, each listening on it.
      if (signal) setMaxListeners(Math.max(getMaxListeners(signal), 4 * size + 10), signal)
      // The stretch's end is listened for before it is added: one that a worker finishes (and that is
      // removed on completion) before a later look could find it is never missed.
      const id = randomUUID()
      const completed = `completed:${id}`
      const failedEvent = `failed:${id}`
      let onCompleted: ((args: { returnvalue: unknown }) => void) | undefined
      let onFailed: ((args: { failedReason?: string }) => void) | undefined
      const finished = new Promise<string>((resolve, reject) => {
        onCompleted = (args) => resolve(args.returnvalue as string)
        onFailed = (args) => reject(new Error(args.failedReason ?? 'the stretch failed'))
      })
      jobEnds.on(completed, onCompleted!)
      jobEnds.on(failedEvent, onFailed!)
      waiting.add(onFailed!)
      out++
      let onAbort: (() => void) | undefined
      const aborted = new Promise<never>((_, reject) => {
        if (!signal) return
        onAbort = () => {
          // Still waiting: taken off the queue (one being run is left to finish, its answer unread).
          queue.remove(id).catch(() => {})
          reject(signal.reason ?? new Error('aborted'))
        }
        if (signal.aborted) onAbort()
        else signal.addEventListener('abort', onAbort, { once: true })
      })
      aborted.catch(() => {})
      finished.catch(() => {})
      try {
        // Reaching Redis and adding are bounded by the request too: a Redis that does not answer costs
        // it its deadline, never more. Once the events are read, none of this stretch's is missed.
        await Promise.race([ready, aborted])
        const added = queue.add(
          'stretch',
          { text },
          // Kept until taken: a stretch runs until it answers, re-run when its worker dies (stalled).
          { jobId: id, removeOnComplete: true, removeOnFail: true, attempts: 1 },
        )
        // Added after the request ended: taken off again.
        added.then(() => (signal?.aborted ? queue.remove(id) : undefined)).catch(() => {})
        await Promise.race([added, aborted])
        put++
        try {
          return await Promise.race([finished, aborted])
        } catch (err) {
          if (err instanceof Error && err.message.startsWith(DECLINED)) throw new WorkerDeclinedError(err.message)
          if (!signal?.aborted) failed++
          throw err
        }
      } finally {
        out--
        jobEnds.off(completed, onCompleted!)
        jobEnds.off(failedEvent, onFailed!)
        waiting.delete(onFailed!)
        // The range's one signal is shared by all its stretches: each takes its listener off when done.
        if (signal && onAbort) signal.removeEventListener('abort', onAbort)
      }
    },
    hasFree() {
      // Counted from the first ask on, every few seconds (one Redis command), for the next asks.
      if (!polling) {
        countTakers()
        polling = setInterval(countTakers, WORKERS_POLL_MS)
        polling.unref()
      }
      return takers > 0 && out < size
    },
    warmUp() {},
    async jobCounts(timeoutMs) {
      counting ??= queue
        .getJobCounts('wait', 'active', 'delayed')
        .then((c) => ({ waiting: c.wait ?? 0, active: c.active ?? 0, delayed: c.delayed ?? 0 }))
        .finally(() => {
          counting = undefined
        })
      const read = counting.catch(() => undefined)
      let timer: ReturnType<typeof setTimeout> | undefined
      const late = new Promise<undefined>((done) => {
        timer = setTimeout(done, timeoutMs, undefined)
      })
      try {
        return await Promise.race([read, late])
      } finally {
        clearTimeout(timer)
      }
    },
    stats: () => ({ put, failed }),
    async close() {
      clearInterval(polling)
      for (const fail of waiting) fail({ failedReason: 'the work queue is closing' })
      // Bounded: BullMQ's QueueEvents waits for its connection to be ready before it closes, which a
      // Redis that is gone or does not answer never is (it keeps trying in the background then).
      let timer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([
        Promise.allSettled([events.close(), queue.close()]),
        new Promise((done) => {
          timer = setTimeout(done, CLOSE_TIMEOUT_MS)
        }),
      ])
      clearTimeout(timer)
    },
  }
}

/** A process's side as a worker of the queue (startQueueWorker). */
export type QueueWorker = {
  /** Stretches this process took from the queue, and of them those whose run failed (threw). */
  stats(): { taken: number; failed: number }
  close(): Promise<void>
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
  maxAnswerChars = MAX_QUEUE_ANSWER_CHARS,
  run,
}: {
  url: string
  chainId: bigint
  concurrency: number
  lockMs?: number
  /** The largest answer sent back over the queue (default MAX_QUEUE_ANSWER_CHARS); a larger one is given back. */
  maxAnswerChars?: number
  run: (text: string) => Promise<string>
}): QueueWorker {
  let taken = 0
  let failed = 0
  const take = async (job: Job) => {
    taken++
    try {
      const answer = await run((job.data as { text: string }).text)
      // Too large to sit in Redis until read: given back to the owner, which runs the call itself.
      if (answer.length > maxAnswerChars)
        throw new Error(`${DECLINED} ${answer.length} characters, over ${maxAnswerChars} for the queue`)
      return answer
    } catch (err) {
      failed++
      throw err
    }
  }
  const worker = new Worker(queueNameFor(chainId), take, {
    connection: queueConnection(url),
    concurrency,
    lockDuration: lockMs,
    stalledInterval: Math.max(1_000, Math.floor(lockMs / 2)),
    maxStalledCount: 3,
  })
  worker.on('error', () => {})
  return { stats: () => ({ taken, failed }), close: () => worker.close() }
}
