import type { RangeWorkers } from '../types/rangeWorkers.js'

/** One Web Worker running its own daemon, as the pool uses it. */
export type PooledWorker = {
  request(message: unknown): Promise<unknown>
  close(): Promise<void>
}

/**
 * The browser's range pool: up to `size` Web Workers, each running its own daemon on the same
 * upstream and the same IndexedDB database (what one verified, the others read from there). They
 * start on the first range and close after `idleMs` without work. A task aborted mid-way closes
 * its worker (a busy one cannot be interrupted otherwise); the next task starts a fresh one.
 */
export function createWebWorkerPool({
  size,
  minBlocks = 64,
  idleMs = 60_000,
  start,
}: {
  size: number
  minBlocks?: number
  idleMs?: number
  /** Starts one worker's daemon. */
  start: () => Promise<PooledWorker>
}): RangeWorkers & { close(): Promise<void> } {
  const idle: { worker: Promise<PooledWorker>; timer: ReturnType<typeof setTimeout>; started: boolean }[] = []
  const waiting: ((worker: Promise<PooledWorker>) => void)[] = []
  let running = 0
  let closed = false

  const retire = (worker: Promise<PooledWorker>) => {
    running--
    void worker.then((w) => w.close()).catch(() => undefined)
    // A task waiting for a worker gets a fresh one in its place (an aborted task's worker is closed).
    const next = closed ? undefined : waiting.shift()
    if (next) {
      running++
      const fresh = start()
      fresh.catch(() => running--)
      next(fresh)
    }
  }
  function acquire(signal: AbortSignal | undefined, onColdStart?: (phase: 'starting') => void): Promise<PooledWorker> {
    const free = idle.pop()
    if (free) {
      clearTimeout(free.timer)
      return free.worker
    }
    if (running < size) {
      running++
      onColdStart?.('starting')
      const worker = start()
      worker.catch(() => running--)
      return worker
    }
    // All busy: the next worker released is handed over (as the promise it is kept as). A task
    // aborted while it waits leaves the queue: it takes no worker (a JavaScript tracer's wait counts
    // against its timeout, and a client that went away is not served).
    return new Promise<PooledWorker>((resolve, reject) => {
      const onAbort = () => {
        const at = waiting.indexOf(waiter)
        if (at >= 0) waiting.splice(at, 1)
        reject(signal?.reason)
      }
      const waiter = (worker: Promise<PooledWorker>) => {
        signal?.removeEventListener('abort', onAbort)
        worker.then(resolve, reject)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      waiting.push(waiter)
    })
  }
  function release(worker: Promise<PooledWorker>) {
    const next = waiting.shift()
    if (next) return next(worker)
    if (closed) return retire(worker)
    const entry = {
      worker,
      started: false,
      timer: setTimeout(() => {
        idle.splice(idle.indexOf(entry), 1)
        retire(worker)
      }, idleMs),
    }
    void worker.then(
      () => {
        entry.started = true
      },
      () => {},
    )
    idle.push(entry)
  }
  let warming = false
  /** Starts workers up to the pool's size, each put straight back as free once its daemon is up. */
  function warmUp() {
    if (warming || closed) return
    warming = true
    const starting: Promise<unknown>[] = []
    while (running < size) {
      running++
      const worker = start()
      starting.push(
        worker.then(
          () => release(worker),
          () => running--,
        ),
      )
    }
    void Promise.all(starting).finally(() => {
      warming = false
    })
  }

  return {
    size,
    minBlocks,
    async run(text, signal, _onTxStart, onColdStart) {
      signal?.throwIfAborted()
      let cold = false
      const worker = acquire(signal, (phase) => {
        cold = true
        onColdStart?.(phase)
      })
      const w = await worker
      if (cold) onColdStart?.('ready')
      // Aborted while its worker started: the worker is free for the next task.
      if (signal?.aborted) {
        release(worker)
        throw signal.reason
      }
      let aborted = false
      const answer = new Promise<unknown>((resolve, reject) => {
        const onAbort = () => {
          aborted = true
          reject(signal?.reason)
        }
        signal?.addEventListener('abort', onAbort, { once: true })
        w.request(JSON.parse(text))
          .then(resolve, reject)
          .finally(() => signal?.removeEventListener('abort', onAbort))
      })
      try {
        return JSON.stringify(await answer)
      } finally {
        if (aborted) retire(worker)
        else release(worker)
      }
    },
    hasFree: () => idle.some((entry) => entry.started),
    warmUp,
    async close() {
      closed = true
      for (const { worker, timer } of idle.splice(0)) {
        clearTimeout(timer)
        retire(worker)
      }
    },
  }
}
