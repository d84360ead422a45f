// A worker thread of the range pool (see createRangeWorkers): its own daemon on the same upstream,
// its persistent tier the main daemon's cache (over each task's port). One request at a time.
// Threads of the JavaScript-tracer pool load it through jsTracerWorker, which hardens the realm first.
import { type MessagePort, threadId, workerData } from 'node:worker_threads'
import type { GethGenesis } from '@ethereumjs/common'
import { createEdgetrace } from '../../createEdgetrace.js'
import { engineKind, provideWasmEvmModule } from '../../wasm/wasmEngineState.js'
import { loadWasmEvmModule } from '../loadWasmEvmModule.js'
import type { EngineOptions } from '../../exec/createEngine.js'
import { onJsTracerTxStart } from '../../tracing/js/jsTracerTxStart.js'
import { createUpstream } from '../../upstream/createUpstream.js'
import { createPortAnchor } from './createPortAnchor.js'
import { createPortStore } from './createPortStore.js'

export type RangeWorkerData = {
  upstream: string
  api: readonly string[]
  chainId: bigint
  genesis?: GethGenesis | undefined
  hardfork?: string | undefined
  checkpoint?: string | undefined
  /** Blocks resolve through the main thread's anchor (its consensus light client), asked over each task's port. */
  anchored?: boolean | undefined
  engine: Partial<EngineOptions>
}

export type RangeTask = { text: string; port: MessagePort }
/** A task's answer: the thread that ran it (its daemon is up) and the response's text. */
export type RangeTaskResult = { thread: number; text: string }
/** What a thread tells its task's port besides store requests: a JavaScript tracer's transaction starts. */
export type TxStartMessage = { op: 'tx' }
/**
 * The first thing a thread tells its task's port: it has begun the task, its daemon up (a thread
 * started for the task has finished starting).
 */
export type TaskBeginMessage = { op: 'begin' }

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
  if (engineKind(data.engine) === 'wasm') provideWasmEvmModule(loadWasmEvmModule)
  return createEdgetrace({
    upstream,
    api: data.api,
    chainId: data.chainId,
    genesis: data.genesis,
    hardfork: data.hardfork,
    checkpoint: data.checkpoint,
    ...(data.anchored ? { anchor: createPortAnchor(() => current) } : {}),
    engine: data.engine,
    persistentStore: createPortStore(() => current),
    // The stretches the main daemon hands its workers that no client has (an ots search's scan).
    rangeWorker: true,
  })
})()
// Awaited by the first task; a failed start fails every task with its error.
daemon.catch(() => {})

/** A task, or null to start this thread's daemon (answered with no text). */
export default async function run(task: RangeTask | null): Promise<RangeTaskResult> {
  const d = await daemon
  if (task === null) return { thread: threadId, text: '' }
  const { text, port } = task
  port.postMessage({ op: 'begin' } satisfies TaskBeginMessage)
  current = port
  onJsTracerTxStart(() => port.postMessage({ op: 'tx' } satisfies TxStartMessage))
  try {
    const out = await d.handler.handleText(text)
    // What this task verified and others can use reaches the main cache before the task ends.
    await d.engine.persistent?.flush()
    return { thread: threadId, text: out ?? '' }
  } finally {
    onJsTracerTxStart(undefined)
    current = undefined
    port.close()
  }
}
