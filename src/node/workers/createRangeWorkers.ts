import { availableParallelism } from 'node:os'
import { MessageChannel, type MessagePort } from 'node:worker_threads'
import { existsSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Piscina } from 'piscina'
import { DEFAULT_JS_TRACER_MEMORY_MB, type Engine } from '../../exec/createEngine.js'
import { type PersistentCodec, createPersistentCodec } from '../../state/createPersistentCodec.js'
import type { RangeWorkers } from '../../types/rangeWorkers.js'
import type { ExecutionAnchor } from '../../chain/createHeaderStore.js'
import { type PortAnchorRequest, answerAnchorRequest } from './createPortAnchor.js'
import type { PortStoreReply, PortStoreRequest } from './createPortStore.js'
import type { RangeTask, RangeTaskResult, RangeWorkerData, TaskBeginMessage, TxStartMessage } from './rangeWorker.js'

/** The default pool: one worker thread per core. */
export const defaultWorkerThreads = (): number => availableParallelism()

/**
 * Serves a worker's store requests from the main daemon's cache, in the items' persisted form, and
 * its questions to the anchor (which block consensus vouches for).
 */
function serveCache(port: MessagePort, engine: Engine, codec: PersistentCodec, anchor: ExecutionAnchor | undefined) {
  port.on('message', (message: PortStoreRequest | TxStartMessage | TaskBeginMessage | PortAnchorRequest) => {
    if (message.op === 'tx' || message.op === 'begin') return
    if (message.op === 'anchor') {
      if (anchor) answerAnchorRequest(port, anchor, message)
      return
    }
    if (message.op === 'get') {
      const values = message.keys.map((key) => {
        const value = engine.cache.get(key)
        return value === undefined ? undefined : codec.encode(key, value)
      })
      port.postMessage({ id: message.id, values } satisfies PortStoreReply)
      return
    }
    for (const [key, stored, bytes] of message.entries) {
      if (engine.cache.has(key)) continue
      const value = codec.decode(key, stored)
      if (value !== undefined) engine.cache.set(key, value, bytes)
    }
  })
}

/**
 * A pool of worker threads (piscina), each running its own daemon on the same upstream, for the
 * ranges the main daemon fans out. Threads start on the first range and stop after a minute idle;
 * each task gets a port to the main cache: workers read the headers and code it holds, and code one
 * worker verified is found there by the others. Every worker's cache gets an equal share of the budget.
 * A task that waits for a thread's start (no thread up and free, fewer tasks than threads) hears
 * 'starting', then 'ready' as a thread begins it (a JavaScript tracer's clock stops meanwhile).
 */
export function createRangeWorkers({
  threads,
  minBlocks = 64,
  warm = false,
  harden = false,
  engine,
  anchor,
  data,
}: {
  threads: number
  /**
   * Threads whose realm is hardened (SES lockdown) before the daemon loads: the pool JavaScript
   * tracers run on. Kept apart from the range pool, whose work runs several times slower hardened.
   */
  harden?: boolean
  /** Start every thread (and its daemon) now rather than on the first range: a server's choice. */
  warm?: boolean
  /** Ranges of fewer blocks are run by the main daemon itself. */
  minBlocks?: number
  engine: Engine
  /**
   * Consensus' word on which block is real (the main daemon's light client): the workers' daemons
   * resolve tags and numbers through it, asked over each task's port.
   */
  anchor?: ExecutionAnchor | undefined
  data: Omit<RangeWorkerData, 'engine' | 'anchored'>
}): RangeWorkers & { ready: Promise<void>; close(): Promise<void> } {
  const script = workerScript(harden ? 'jsTracerWorker' : 'rangeWorker')
  // From the sources (`npm start`, tests), the workers load TypeScript through tsx as this thread does.
  const execArgv =
    script.endsWith('.ts') && !process.execArgv.some((a) => a.includes('tsx'))
      ? [...process.execArgv, '--import', 'tsx']
      : undefined
  const options = engine.options
  // A tracer's thread keeps a quarter of its bounded heap for its cache, the rest for the tracer.
  const heapShare = harden
    ? ((options.jsTracerMemoryMb ?? DEFAULT_JS_TRACER_MEMORY_MB) * 1024 * 1024) / 4
    : Number.POSITIVE_INFINITY
  const workerData: RangeWorkerData = {
    ...data,
    anchored: anchor !== undefined,
    engine: {
      ...options,
      // Known contracts stay on the main thread (the source tracer renders there); a registry cannot be cloned.
      sources: undefined,
      cacheBytes: Math.max(16 * 1024 * 1024, Math.min(Math.floor(options.cacheBytes / threads), heapShare)),
    },
  }
  const codec = createPersistentCodec(engine.rules)
  const pool = new Piscina({
    filename: script,
    workerData,
    minThreads: warm ? threads : 0,
    maxThreads: threads,
    idleTimeout: warm ? Number.POSITIVE_INFINITY : 60_000,
    ...(execArgv ? { execArgv } : {}),
    // A JavaScript tracer's thread has a heap of its own, bounded: a tracer that keeps allocating
    // ends its thread (ERR_WORKER_OUT_OF_MEMORY), not the server.
    ...(harden
      ? { resourceLimits: { maxOldGenerationSizeMb: options.jsTracerMemoryMb ?? DEFAULT_JS_TRACER_MEMORY_MB } }
      : {}),
  })
  // A thread that fails while it holds no task (a JavaScript tracer's thread reaching its heap limit
  // just after its request gave it up) has nobody to answer: piscina replaces it and reports the error
  // on the pool, which without a listener would be thrown in this process.
  pool.on('error', () => {})
  // The threads whose daemon is up (each task answers with its thread's id), and the tasks running.
  const up = new Set<number>()
  let closing = false
  let inFlight = 0
  // A thread piscina ended (idle, or under an aborted task) is no longer up (piscina's worker is
  // named by `id`, its threadId).
  pool.on('workerDestroy', (worker: { id: number }) => {
    up.delete(worker.id)
    // A thread ended under its task (an aborted JavaScript tracer's) is not replaced by piscina for
    // the tasks already queued (it starts threads only as tasks arrive): a start task makes it start
    // one, which takes the first of them.
    setImmediate(() => {
      if (pool.queueSize > 0 && !closing) pool.run(null).catch(() => {})
    })
  })
  const startAll = async () => {
    // Start tasks sent together make the pool start that many threads; one that a quick thread
    // took twice leaves another thread starting, which the next round waits for.
    for (let round = 0; round < 3 && up.size < threads; round++) {
      const started = await Promise.all(
        Array.from({ length: threads - up.size }, () => pool.run(null) as Promise<RangeTaskResult>),
      )
      for (const { thread } of started) up.add(thread)
    }
  }
  let warming: Promise<void> | undefined
  const warmUp = () => {
    warming ??= startAll()
      .catch(() => {})
      .finally(() => {
        warming = undefined
      })
    return warming
  }
  const ready = warm ? startAll() : Promise.resolve()
  ready.catch(() => {})
  return {
    /** Resolves once every thread's daemon is up (immediately when not warm). */
    ready,
    size: threads,
    minBlocks,
    // A JavaScript tracer's thread reports each transaction it starts tracing (its timeout restarts).
    reportsTxStart: harden,
    async run(text, signal, onTxStart, onColdStart) {
      signal?.throwIfAborted()
      const { port1, port2 } = new MessageChannel()
      serveCache(port1, engine, codec, anchor)
      // No thread up and free, but fewer tasks than threads: this task waits for a thread's start
      // (piscina starts one for it, or one replacing an ended thread is starting), and hears
      // 'starting' now and 'ready' when a thread begins it, its daemon up. With every thread taken
      // by a task, it waits for one of those tasks to end: no start, nothing heard.
      let cold = onColdStart !== undefined && up.size <= inFlight && inFlight < threads
      const ready = () => {
        if (!cold) return
        cold = false
        onColdStart?.('ready')
      }
      if (onTxStart || cold)
        port1.on('message', (message: { op?: unknown }) => {
          if (message.op === 'begin') ready()
          else if (message.op === 'tx') onTxStart?.()
        })
      if (cold) onColdStart?.('starting')
      inFlight++
      try {
        const task: RangeTask = { text, port: port2 }
        // Aborted while queued, the task leaves the queue; while running, its thread is ended.
        const result: RangeTaskResult = await pool.run(task, {
          transferList: [port2],
          ...(signal ? { signal } : {}),
        })
        // A thread that answered is up (a cold pool's threads start with their first task).
        up.add(result.thread)
        // Its word that it began comes on the task's port, which may be read after the answer: at
        // the latest, it is heard now.
        ready()
        return result.text
      } finally {
        inFlight--
        port1.close()
      }
    },
    hasFree: () => up.size > inFlight,
    warmUp: () => void warmUp(),
    close: () => {
      closing = true
      return pool.destroy()
    },
  }
}

/**
 * A worker's script: the one-file bundle beside this module (dist/node/workers/*.bundle.js, made by
 * `npm run build`: scripts/bundleNode.ts), else tsc's per-file script there, else from the sources
 * (src/node/workers/*.ts); from the sources with EDGETRACE_COMPILED_SOURCES naming a JavaScript copy
 * of the project (the test suite's, made by test/setup/compileSources.ts), that copy's. This module
 * may itself be inside the CLI's bundle (dist/node/cli.bundle.js): the scripts are then in workers/
 * beside it. A thread starts from a bundle on about a fifth of the CPU (bench/workers.ts).
 */
function workerScript(name: 'rangeWorker' | 'jsTracerWorker'): string {
  const here = import.meta.url
  const compiled = process.env.EDGETRACE_COMPILED_SOURCES
  if (here.endsWith('.ts') && !compiled) return new URL(`./${name}.ts`, here).href
  const dir = here.endsWith('.ts') ? pathToFileURL(`${compiled}/src/node/workers/`) : new URL('./', here)
  const candidates = [dir, new URL('workers/', dir)].flatMap((d) => [
    new URL(`${name}.bundle.js`, d),
    new URL(`${name}.js`, d),
  ])
  return (candidates.find((url) => existsSync(fileURLToPath(url))) ?? candidates[1]!).href
}
