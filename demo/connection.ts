import { connectEdgetraceWorker } from '../src/browser/connectEdgetraceWorker.js'
import type { EngineCounters } from '../src/exec/engineCounters.js'
import type { NamedSourceFile } from '../src/sources/readSourceFiles.js'

export type Counters = EngineCounters

/** A JSON-RPC error from edgetrace, shown as the page's error. */
export class RpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

/** Where answers come from: an edgetrace server, or the daemon in this page's worker. */
export type Connection = {
  readonly kind: 'server' | 'browser'
  /** Said in the page: who answers, and from what. */
  readonly label: string
  /**
   * What the daemon's source tracer (edgetrace_sourceTracer) knows: `own`, build outputs or a
   * Sourcify server of its own (the page may not have them); `page`, exactly the page's files (the
   * in-browser daemon, given them as `config.sources`); `none`, nothing (it matches no contract).
   * Undefined: a server that did not say (asked as one with its own).
   */
  readonly sources?: DaemonSources
  /**
   * The Sourcify server (APIv2) the daemon's source tracer asks, when it said (its explorer.json):
   * the page asks it too for the contracts its own sources do not know, for the stepper's source pane.
   */
  readonly sourcify?: string
  call<result = unknown>(method: string, params: unknown[]): Promise<result>
  /** The daemon's running totals (undefined when it does not say). */
  counters(): Promise<Counters | undefined>
  /** Waits until what the answers cached is stored (the in-browser daemon's IndexedDB), so a reload works offline. */
  flush(): Promise<void>
  close(): Promise<void>
}

const unwrap = <result>(method: string, body: { result?: unknown; error?: { code: number; message: string } }) => {
  if (body.error) throw new RpcError(method, body.error.code, body.error.message)
  return body.result as result
}

/** What a daemon's source tracer knows (Connection.sources). */
export type DaemonSources = 'own' | 'page' | 'none'

/** An edgetrace server: JSON-RPC over POST, its counters at GET /stats; `said`, what it said of its source tracer. */
export function createServerConnection(
  url: string,
  said: { sources?: DaemonSources | undefined; sourcify?: string | undefined } = {},
): Connection {
  const base = url.replace(/\/+$/, '')
  let id = 0
  return {
    kind: 'server',
    label: `the edgetrace server at ${base}`,
    ...(said.sources ? { sources: said.sources } : {}),
    ...(said.sourcify ? { sourcify: said.sourcify } : {}),
    async call(method, params) {
      const res = await fetch(base, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      })
      if (!res.ok) throw new RpcError(method, -32603, `HTTP ${res.status} from ${base}: ${await res.text()}`)
      return unwrap(method, await res.json())
    },
    async counters() {
      const res = await fetch(`${base}/stats`).catch(() => undefined)
      return res?.ok ? ((await res.json()) as Counters) : undefined
    },
    flush: async () => undefined,
    close: async () => undefined,
  }
}

/**
 * The daemon in a Web Worker of this page, reading verified state from `upstream` (and its IndexedDB
 * cache); with `beacon`, which block is real is that beacon node's sync committee's word (its light
 * client in the worker, from `checkpoint` or, without one, the pin or the node's finalized root).
 */
export async function createBrowserConnection(
  upstream: string,
  hardfork: string | undefined,
  beacon?: { url: string; checkpoint?: string | undefined },
  /** Build outputs for the daemon's source-level tracer (edgetrace_sourceTracer): `config.sources`. */
  sources?: readonly NamedSourceFile[],
): Promise<Connection> {
  const worker = new Worker(new URL('../worker/edgetrace.worker.ts', import.meta.url), { type: 'module' })
  const client = await connectEdgetraceWorker(worker, {
    upstream,
    api: ['eth', 'vendor', 'debug', 'trace', 'web3', 'net'],
    ...(hardfork ? { hardfork } : {}),
    ...(beacon ? { beacon: { url: beacon.url, ...(beacon.checkpoint ? { checkpoint: beacon.checkpoint } : {}) } } : {}),
    ...(sources && sources.length > 0 ? { sources: sources.map((f) => ({ name: f.name, text: f.text })) } : {}),
  }).catch((err: unknown) => {
    worker.terminate()
    throw err
  })
  const started = client.started
  return {
    kind: 'browser',
    sources: 'page',
    label: `edgetrace in this browser, reading ${upstream}${beacon ? `, anchored by the beacon node ${beacon.url}` : ''}${started.startedOffline ? ' (started offline, from its IndexedDB cache)' : ''}`,
    async call(method, params) {
      return unwrap(method, await client.call(method, params))
    },
    async counters() {
      return (await client.status())?.counters
    },
    flush: () => client.flush(),
    close: () => client.close(),
  }
}
