// A worker thread of the range pool (see createRangeWorkers): its own daemon on the same upstream,
// its persistent tier the main daemon's cache (over each task's port). One request at a time.
// Threads of the JavaScript-tracer pool load it through jsTracerWorker, which hardens the realm first.
import { type MessagePort, threadId, workerData } from 'node:worker_threads'
import type { GethGenesis } from '@ethereumjs/common'
import { createEdgetrace } from '../../createEdgetrace.js'
import type { EngineOptions } from '../../exec/createEngine.js'
import { createUpstream } from '../../upstream/createUpstream.js'
import { createPortStore } from './createPortStore.js'

export type RangeWorkerData = {
  upstream: string
  api: readonly string[]
  chainId: bigint
  genesis?: GethGenesis | undefined
  hardfork?: string | undefined
  checkpoint?: string | undefined
  engine: Partial<EngineOptions>
}

export type RangeTask = { text: string; port: MessagePort }

const data = workerData as RangeWorkerData
let current: MessagePort | undefined

const daemon = (async () => {
  const webSocket = /^wss?:\/\//i.test(data.upstream)
    ? ((globalThis as { WebSocket?: unknown }).WebSocket ?? (await import('ws')).WebSocket)
    : undefined
  const upstream = createUpstream({
    url: data.upstream,
    ...(webSocket ? { webSocket: webSocket as never } : {}),
    ...(data.engine.evmTimeoutMs !== undefined ? { callTimeoutMs: data.engine.evmTimeoutMs } : {}),
  })
  return createEdgetrace({
    upstream,
    api: data.api,
    chainId: data.chainId,
    genesis: data.genesis,
    hardfork: data.hardfork,
    checkpoint: data.checkpoint,
    engine: data.engine,
    persistentStore: createPortStore(() => current),
  })
})()
// Awaited by the first task; a failed start fails every task with its error.
daemon.catch(() => {})

/** A task, or null to start this thread's daemon: answered then with the thread's id. */
export default async function run(task: RangeTask | null): Promise<string> {
  const d = await daemon
  if (task === null) return String(threadId)
  const { text, port } = task
  current = port
  try {
    const out = await d.handler.handleText(text)
    // What this task verified and others can use reaches the main cache before the task ends.
    await d.engine.persistent?.flush()
    return out ?? ''
  } finally {
    current = undefined
    port.close()
  }
}
