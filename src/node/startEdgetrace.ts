import type { GethGenesis } from '@ethereumjs/common'
import { type Edgetrace, createEdgetrace } from '../createEdgetrace.js'
import { DEFAULT_ENGINE_OPTIONS, type EngineOptions } from '../exec/createEngine.js'
import { type WebSocketConstructor, createUpstream } from '../upstream/createUpstream.js'
import type { ProgressEvent } from '../types/progress.js'
import type { Upstream } from '../upstream/types.js'
import { engineCounters } from '../exec/engineCounters.js'
import { createRangeWorkers, defaultWorkerThreads } from './workers/createRangeWorkers.js'
import { isLoopback } from './parseCliArgs.js'
import { type EdgetraceServer, createServer } from './createServer.js'
import { createSocketServer } from './createSocketServer.js'
import { createGraphqlHandler } from '../rpc/graphql/createGraphqlHandler.js'

export type StartEdgetraceParameters = {
  upstream: string
  /**
   * `--workers`: worker threads long ranges (trace_filter, debug_getModifiedAccounts*) fan out to
   * (default one per core; 0 runs everything on the main thread), the fewest blocks a range needs
   * to be fanned out (default 64), and whether the threads start with the server (`warm`: the
   * server is up once they are; otherwise they start on the first range and stop after a minute idle).
   */
  workers?: { threads?: number; minBlocks?: number; warm?: boolean } | undefined
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
  /**
   * WebSocket: `port` (`--ws.port`) for a listener of its own on `host` (else on the HTTP port, as
   * the reference daemon does), `api` (`--ws.api`) its namespaces (else `api`'s).
   */
  ws?: { port?: number | undefined; api?: readonly string[] | undefined } | undefined
  /** `--https.*`: an HTTPS listener (HTTP/2 and HTTP/1.1, WebSocket over TLS) besides HTTP. */
  https?: { host?: string | undefined; port: number; key: Buffer | string; cert: Buffer | string } | undefined
  /** `--socket.url`: an IPC (`unix://…`) or raw TCP (`tcp://host:port`) listener. */
  socketUrl?: string | undefined
  /** `--graphql`: GraphQL on /graphql of the HTTP (and HTTPS) listener. */
  graphql?: boolean | undefined
}

/** The listeners besides HTTP, where they are on. */
export type ExtraListeners = {
  /** The WebSocket listener's URL when it has its own port. */
  wsListenerUrl?: string | undefined
  /** The HTTPS listener's URL. */
  httpsUrl?: string | undefined
  /** The IPC or TCP socket's URL. */
  socketUrl?: string | undefined
}

export type RunningEdgetrace = Edgetrace & EdgetraceServer & ExtraListeners & { upstream: Upstream }

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
  ws,
  https,
  socketUrl,
  graphql,
  workers,
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
      // JavaScript tracers: on loopback, and beyond it only when asked for (--rpc.jstracers).
      engine: { ...engine, jsTracers: engine?.jsTracers ?? isLoopback(host) },
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
    const threads = workers?.threads ?? defaultWorkerThreads()
    const poolOptions = (harden: boolean) =>
      createRangeWorkers({
        // JavaScript tracers need a thread to be ended on, even with ranges kept on the main one (--workers 0).
        threads: harden ? Math.max(1, threads) : threads,
        harden,
        ...(workers?.minBlocks !== undefined ? { minBlocks: workers.minBlocks } : {}),
        warm: workers?.warm === true,
        engine: daemon.engine,
        data: {
          upstream: upstreamUrl,
          api: ['eth', 'trace', 'debug'],
          chainId: daemon.engine.rules.chainId,
          genesis,
          hardfork,
          checkpoint,
        },
      })
    // Two pools: ranges on plain threads, JavaScript tracers on hardened ones (started on first use).
    const pool = threads > 0 ? poolOptions(false) : undefined
    const jsPool = daemon.engine.options.jsTracers !== false ? poolOptions(true) : undefined
    daemon.engine.rangeWorkers = pool
    daemon.engine.jsTracerWorkers = jsPool
    for (const p of [pool, jsPool])
      if (p)
        await p.ready.catch(async (err: unknown) => {
          await Promise.all([pool?.close(), jsPool?.close()])
          throw err
        })
    const wsHandler = ws?.api ? daemon.handlerFor(ws.api) : daemon.handler
    const shared = {
      ...(corsDomains ? { corsDomains } : {}),
      ...(wsOrigins ? { wsOrigins } : {}),
      ...(vhosts ? { vhosts } : {}),
      ...(maxQueuedBytes !== undefined ? { maxQueuedBytes } : {}),
      explorerDir,
      explorerInfo,
      counters: () => engineCounters(daemon.engine),
      // GraphQL resolves every field with the verified eth_* and debug_* methods (an internal handler).
      graphql: graphql
        ? createGraphqlHandler(daemon.handlerFor(['eth', 'debug', 'txpool'], { internal: true }))
        : undefined,
    }
    const ownWsPort = ws?.port !== undefined
    const listeners: { close(): Promise<void> }[] = []
    if (pool) listeners.push(pool)
    if (jsPool) listeners.push(jsPool)
    const closeAll = async () => {
      for (const listener of listeners.splice(0).reverse()) await listener.close().catch(() => undefined)
    }
    try {
      const server = await createServer({
        handler: daemon.handler,
        wsHandler,
        websocket: !ownWsPort,
        host,
        port,
        ...shared,
      })
      listeners.push(server)
      const extra: ExtraListeners = {}
      if (ownWsPort) {
        const wsServer = await createServer({ handler: wsHandler, host, port: ws.port as number, ...shared })
        listeners.push(wsServer)
        extra.wsListenerUrl = wsServer.wsUrl
      }
      if (https) {
        const secure = await createServer({
          handler: daemon.handler,
          wsHandler,
          host: https.host ?? host,
          port: https.port,
          tls: { key: https.key, cert: https.cert },
          ...shared,
        })
        listeners.push(secure)
        extra.httpsUrl = secure.url
      }
      if (socketUrl) {
        const socket = await createSocketServer({
          handler: wsHandler,
          url: socketUrl,
          ...(maxQueuedBytes !== undefined ? { maxQueuedBytes } : {}),
        })
        listeners.push(socket)
        extra.socketUrl = socket.url
      }
      return {
        ...daemon,
        ...server,
        ...extra,
        wsUrl: extra.wsListenerUrl ?? server.wsUrl,
        upstream,
        close: async () => {
          await closeAll()
          await upstream.close()
        },
      }
    } catch (err) {
      await closeAll()
      throw err
    }
  } catch (err) {
    await upstream.close()
    throw err
  }
}
