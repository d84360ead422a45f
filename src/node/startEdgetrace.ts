import type { GethGenesis } from '@ethereumjs/common'
import { type Edgetrace, createEdgetrace } from '../createEdgetrace.js'
import { DEFAULT_ENGINE_OPTIONS, type EngineOptions } from '../exec/createEngine.js'
import { type WebSocketConstructor, createUpstream } from '../upstream/createUpstream.js'
import type { ProgressEvent } from '../types/progress.js'
import type { Upstream } from '../upstream/types.js'
import { engineCounters } from '../exec/engineCounters.js'
import { type EdgetraceServer, createServer } from './createServer.js'

export type StartEdgetraceParameters = {
  upstream: string
  host?: string
  port?: number
  api?: readonly string[]
  corsDomains?: readonly string[]
  /** `--ws.origins`: see createServer. */
  wsOrigins?: readonly string[]
  /** `--http.vhosts`: see createServer (default `localhost`). */
  vhosts?: readonly string[]
  batchLimit?: number
  genesis?: GethGenesis | undefined
  hardfork?: string | undefined
  engine?: Partial<EngineOptions>
  /** `--checkpoint`: the block hash blocks asked by number or tag must link to. */
  checkpoint?: string | undefined
  log?: (line: string) => void
  /** The explorer page's build directory, served on GET / (see createServer); none by default. */
  explorerDir?: string | undefined
  /** What the explorer shows at home (GET /explorer.json). */
  explorerInfo?: unknown
  /** How often a long call's progress is logged, ms (default 5 s). */
  progressEveryMs?: number
  /** Notifications one WebSocket client may leave unread before it is dropped (see createServer). */
  maxQueuedBytes?: number
}

export type RunningEdgetrace = Edgetrace & EdgetraceServer & { upstream: Upstream }

/** Node 20 has no global WebSocket: a ws(s):// upstream gets the `ws` package's class. */
async function nodeWebSocket(url: string): Promise<WebSocketConstructor | undefined> {
  if (!/^wss?:\/\//i.test(url)) return undefined
  const global = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket
  return global ?? ((await import('ws')).WebSocket as unknown as WebSocketConstructor)
}

/** Starts the Node server in front of an upstream (used by the CLI, the tests and the benchmark). */
export async function startEdgetrace({
  upstream: upstreamUrl,
  host = '127.0.0.1',
  port = 8545,
  api,
  corsDomains,
  wsOrigins,
  vhosts,
  batchLimit,
  genesis,
  hardfork,
  engine,
  checkpoint,
  log,
  progressEveryMs,
  explorerDir,
  explorerInfo,
  maxQueuedBytes,
}: StartEdgetraceParameters): Promise<RunningEdgetrace> {
  const upstream = createUpstream({
    url: upstreamUrl,
    ...(log ? { onLog: log } : {}),
    webSocket: await nodeWebSocket(upstreamUrl),
    // No upstream call is waited for longer than a request may take.
    callTimeoutMs: engine?.evmTimeoutMs ?? DEFAULT_ENGINE_OPTIONS.evmTimeoutMs,
  })
  try {
    const daemon = await createEdgetrace({
      upstream,
      ...(api ? { api } : {}),
      ...(batchLimit !== undefined ? { batchLimit } : {}),
      genesis,
      hardfork,
      ...(engine ? { engine } : {}),
      checkpoint,
      onLog: log,
      ...(log
        ? {
            onProgress: (e: ProgressEvent) =>
              log(e.message ?? `${e.method}: ${e.done} of ${e.total} ${e.unit}, ${Math.round(e.elapsedMs / 1000)} s`),
          }
        : {}),
      progressEveryMs: progressEveryMs ?? 5000,
      onInternalError: (err, method) =>
        log?.(`internal error in ${method}: ${err instanceof Error ? err.stack : String(err)}`),
    })
    const server = await createServer({
      handler: daemon.handler,
      host,
      port,
      ...(corsDomains ? { corsDomains } : {}),
      ...(wsOrigins ? { wsOrigins } : {}),
      ...(vhosts ? { vhosts } : {}),
      ...(maxQueuedBytes !== undefined ? { maxQueuedBytes } : {}),
      explorerDir,
      explorerInfo,
      counters: () => engineCounters(daemon.engine),
    })
    return {
      ...daemon,
      ...server,
      upstream,
      close: async () => {
        await server.close()
        await upstream.close()
      },
    }
  } catch (err) {
    await upstream.close()
    throw err
  }
}
