import type { GethGenesis } from '@ethereumjs/common'
import { availableParallelism } from 'node:os'
import { type Edgetrace, createEdgetrace } from '../createEdgetrace.js'
import { DEFAULT_ENGINE_OPTIONS, type EngineOptions } from '../exec/createEngine.js'
import { createSharedTier } from '../state/createSharedTier.js'
import { createHealth } from './createHealth.js'
import { type Metrics, createMetrics } from './createMetrics.js'
import { createQueueWorkers, startQueueWorker } from './createQueueWorkers.js'
import { createRedisKv } from './createRedisKv.js'
import { type WebSocketConstructor, createUpstream } from '../upstream/createUpstream.js'
import type { ProgressEvent } from '../types/progress.js'
import type { Upstream } from '../upstream/types.js'
import { engineKind, provideWasmEvmModule } from '../wasm/wasmEngineState.js'
import { loadWasmEvmModule } from './loadWasmEvmModule.js'
import { engineCounters } from '../exec/engineCounters.js'
import { createRangeWorkers, defaultWorkerThreads } from './workers/createRangeWorkers.js'
import { isLoopback } from './parseCliArgs.js'
import { type EdgetraceServer, createServer } from './createServer.js'
import { createSocketServer, parseSocketUrl } from './createSocketServer.js'
import type { RpcHandler } from '../rpc/createRpcHandler.js'
import { DEFAULT_API } from '../createEdgetrace.js'
import { createGraphqlHandler } from '../rpc/graphql/createGraphqlHandler.js'
import type { LightClient } from '../chain/beacon/createLightClient.js'
import { type ConsensusParameters, startConsensus } from './startConsensus.js'
import type { PinnedStart } from '../chain/beacon/connectPinnedLightClient.js'

/** `startEdgetrace`'s options: the CLI's flags by name (`npx edgetrace --help`), each noted with its flag. */
export type StartEdgetraceParameters = {
  /** `--upstream`: the node state is read from, `http(s)://` or `ws(s)://` (any node with `eth_getProof`). */
  upstream: string
  /**
   * `--workers`: worker threads long ranges (trace_filter, debug_getModifiedAccounts*, the ots
   * searches' block scans, the signers of Bor snapshot walks) fan out to (default one per core; 0
   * runs everything on the main thread), the fewest blocks a range needs to be fanned out (default
   * 64), and whether the threads start with the server (`warm`: the server is up once they are;
   * otherwise they start on the first range and stop after a minute idle).
   */
  workers?:
    | {
        /** Worker threads (default one per core; 0: everything on the main thread). */
        threads?: number
        /** The fewest blocks a range needs to be fanned out (default 64). */
        minBlocks?: number
        /** Start the threads with the server (else on the first range, stopped after a minute idle). */
        warm?: boolean
      }
    | undefined
  /** `--http.addr`: the HTTP listener's address (default `127.0.0.1`). */
  host?: string
  /** `--http.port`: the HTTP listener's port (default 8545; 0: any free port, said in `url`). */
  port?: number
  /** `--http.api`: the namespaces the HTTP and HTTPS listeners serve; without it, `defaultApi`'s for each. */
  api?: readonly string[] | undefined
  /**
   * The namespaces a listener serves when neither `api` (HTTP, HTTPS) nor `ws.api` (WebSocket, IPC,
   * TCP) names them, by whether it listens on loopback (an IPC socket does): each listener is judged
   * by its own address. The CLI: tracing on loopback, `eth,vendor` beyond. Default: eth and vendor.
   */
  defaultApi?: ((loopback: boolean) => readonly string[]) | undefined
  /** `--http.corsdomain`: origins allowed to call from a browser (`*` for any). */
  corsDomains?: readonly string[]
  /** `--ws.origins`: see createServer. */
  wsOrigins?: readonly string[]
  /** `--http.vhosts`: see createServer (default `localhost`). */
  vhosts?: readonly string[]
  /** `--rpc.batch.limit`: the largest JSON-RPC batch (default 100). */
  batchLimit?: number
  /** `--rpc.response.limit`: most bytes of one message's answer on every transport (0: no limit). */
  maxResponseBytes?: number
  /** `--chain`: a geth-style genesis naming the forks of a chain edgetrace does not know. */
  genesis?: GethGenesis | undefined
  /** `--hardfork`: one hardfork for every block (devnets). */
  hardfork?: string | undefined
  /** The engine's flags: `--rpc.gascap`, `--rpc.evmtimeout`, `--unverified`, `--trace.compat`, the cache budget… */
  engine?: Partial<EngineOptions>
  /** `--checkpoint`: the block hash blocks asked by number or tag must link to. */
  checkpoint?: string | undefined
  /**
   * `--beacon.upstream` (trust mode consensus): a consensus light client of that beacon node,
   * bootstrapped from the beacon block root given, pinned (`datadir`) or trusted on first use,
   * decides which block is real.
   */
  beacon?: ConsensusParameters | undefined
  /** Hears what the server has to say: the banner's lines, retries, progress of long calls, internal errors. */
  log?: (line: string) => void
  /** The explorer page's build directory, served on GET / (see createServer); none by default. */
  explorerDir?: string | undefined
  /** What the explorer shows at home (GET /explorer.json). */
  explorerInfo?: unknown
  /** A build output the explorer page debugs at the source level (GET /explorer-sources.json; see createServer). */
  explorerSources?: string | undefined
  /** How often a long call's progress is logged, ms (default 5 s). */
  progressEveryMs?: number
  /** Notifications one WebSocket client may leave unread before it is dropped (see createServer). */
  maxQueuedBytes?: number
  /**
   * WebSocket: `port` (`--ws.port`) for a listener of its own on `host` (else on the HTTP port, as
   * the reference daemon does), `api` (`--ws.api`) its namespaces (else `api`'s).
   */
  ws?:
    | {
        /** `--ws.port`: a WebSocket listener of its own on `host` (else on the HTTP port). */
        port?: number | undefined
        /** `--ws.api`: the namespaces WebSocket (and IPC) serve (else `api`'s). */
        api?: readonly string[] | undefined
      }
    | undefined
  /** `--https.*`: an HTTPS listener (HTTP/2 and HTTP/1.1, WebSocket over TLS) besides HTTP. */
  https?:
    | {
        /** `--https.addr`: its address (default `host`'s). */
        host?: string | undefined
        /** `--https.port`: its port (0: any free port, said in `httpsUrl`). */
        port: number
        /** `--https.key`: the TLS private key (PEM). */
        key: Buffer | string
        /** `--https.cert`: the TLS certificate chain (PEM). */
        cert: Buffer | string
      }
    | undefined
  /** `--socket.url`: an IPC (`unix://…`) or raw TCP (`tcp://host:port`) listener. */
  socketUrl?: string | undefined
  /** `--graphql`: GraphQL on /graphql of the HTTP (and HTTPS) listener. */
  graphql?: boolean | undefined
  /**
   * `--cache.redis`: a Redis (or Valkey) URL, `redis://` or `rediss://`, for the shared verified
   * cache tier other edgetrace processes use too (createSharedTier): behind the memory cache, each
   * entry read from it checked as if it came from the upstream. Bounded and optional: with the store
   * down or slow the server serves from the upstream.
   */
  cacheRedis?: string | undefined
  /**
   * How long one call to `cacheRedis` may take before it counts as failed and the upstream answers
   * instead, ms (default 250: a store on the same network answers in about a millisecond).
   */
  cacheRedisTimeoutMs?: number | undefined
  /**
   * `--metrics`: GET /metrics (Prometheus) and the full GET /health (ready or not, 503) on every
   * listener. Without it only loopback listeners serve them; others answer /health with a plain ok
   * and /metrics not at all.
   */
  metrics?: boolean | undefined
  /**
   * The shared work queue on Redis (BullMQ): `redis` (`--queue.redis`) puts this process's long
   * ranges' stretches on it instead of its own threads; `work` (`--queue.work`) makes this process
   * take stretches from it, on its worker threads; `lockMs` (`--queue.lock`, default 30 s) is how
   * long a worker that died holds a stretch before another runs it again.
   */
  queue?:
    | {
        /** `--queue.redis`: the Redis (or Valkey) URL of the queue, `redis://` or `rediss://`. */
        redis: string
        /** `--queue.work`: take stretches from the queue too, on this process's worker threads. */
        work?: boolean | undefined
        /** `--queue.lock`: how long a worker that died holds a stretch before another runs it, ms (default 30,000). */
        lockMs?: number | undefined
      }
    | undefined
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

/** One listener as it was started: where, whether only this machine reaches it, what it serves. */
export type ListenerInfo = {
  /** Which listener: HTTP, a WebSocket one of its own, HTTPS, or the IPC/TCP socket. */
  kind: 'http' | 'ws' | 'https' | 'socket'
  /** Its URL (`http://127.0.0.1:8545`, `wss://…`, `unix:///…`, `tcp://…`). */
  url: string
  /** Its address (`--http.addr`, `--https.addr`, the TCP socket's host), or the IPC socket's path. */
  address: string
  /** Loopback, or an IPC socket: only this machine reaches it. */
  loopback: boolean
  /** The namespaces it serves. */
  api: readonly string[]
  /** Whether it serves JavaScript tracers (loopback, or `--rpc.jstracers`). */
  jsTracers: boolean
}

/**
 * A started server (`startEdgetrace`): the daemon (its `handler`, `engine`), the HTTP server (`url`,
 * `wsUrl`, `close()`), the other listeners' URLs, the upstream client and what each listener serves.
 */
export type RunningEdgetrace = Edgetrace &
  EdgetraceServer &
  ExtraListeners & {
    /** The upstream client every read goes through (its `stats()`). */
    upstream: Upstream
    /** Every listener started, HTTP first. */
    listeners: readonly ListenerInfo[]
    /** With `beacon`: the light client blocks resolve through (its status for the banner). */
    lightClient?: LightClient | undefined
    /** With `beacon`: how the start came to trust its checkpoint (given, pinned, first use; resumed from). */
    beaconTrust?: PinnedStart | undefined
  }

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
  defaultApi = () => DEFAULT_API,
  corsDomains,
  wsOrigins,
  vhosts,
  batchLimit,
  maxResponseBytes,
  genesis,
  hardfork,
  engine,
  checkpoint,
  beacon,
  log,
  progressEveryMs,
  explorerDir,
  explorerInfo,
  explorerSources,
  maxQueuedBytes,
  ws,
  https,
  socketUrl,
  graphql,
  workers,
  cacheRedis,
  cacheRedisTimeoutMs,
  metrics: metricsEverywhere = false,
  queue,
}: StartEdgetraceParameters): Promise<RunningEdgetrace> {
  // `--engine wasm` (the default): the module from dist/wasm/evm.wasm, or compiled from the sources.
  if (engineKind(engine) === 'wasm') provideWasmEvmModule(loadWasmEvmModule)
  let metrics: Metrics | undefined
  const sharedKv = cacheRedis
    ? createRedisKv({
        url: cacheRedis,
        ...(log ? { log } : {}),
        ...(cacheRedisTimeoutMs !== undefined ? { commandTimeoutMs: cacheRedisTimeoutMs } : {}),
      })
    : undefined
  const upstream = createUpstream({
    url: upstreamUrl,
    ...(log ? { onLog: log } : {}),
    webSocket: await nodeWebSocket(upstreamUrl),
    // No upstream call is waited for longer than a request may take.
    callTimeoutMs: engine?.evmTimeoutMs ?? DEFAULT_ENGINE_OPTIONS.evmTimeoutMs,
  })
  // Each listener is judged by its own address: its namespaces and whether it serves tracer code.
  const socketTarget = socketUrl ? parseSocketUrl(socketUrl) : undefined
  const loopback = {
    http: isLoopback(host),
    https: https ? isLoopback(https.host ?? host) : undefined,
    socket: socketTarget ? 'path' in socketTarget || isLoopback(socketTarget.host) : undefined,
  }
  const httpApiFor = (local: boolean) => api ?? defaultApi(local)
  const wsApiFor = (local: boolean) => ws?.api ?? httpApiFor(local)
  // JavaScript tracers: on loopback, and beyond it only when asked for (--rpc.jstracers).
  const jsTracersFor = (local: boolean) => engine?.jsTracers ?? local
  // Consensus first: a beacon node that does not verify, or serves another chain, stops the start, saying what failed.
  const trusted = beacon
    ? await startConsensus(beacon, {
        upstream,
        genesis,
        log,
        // A sync a request starts is given up when the request would be (its Beacon API calls aborted).
        syncTimeoutMs: engine?.evmTimeoutMs ?? DEFAULT_ENGINE_OPTIONS.evmTimeoutMs,
      }).catch(async (err: unknown) => {
        await upstream.close()
        await sharedKv?.close()
        throw err
      })
    : undefined
  const lightClient = trusted?.client
  // edgetrace_trust says whether the checkpoint is the beacon node's own word (trusted on first use).
  const anchor = trusted?.anchor
  try {
    const daemon = await createEdgetrace({
      upstream,
      ...(sharedKv ? { persistentStore: createSharedTier({ kv: sharedKv }) } : {}),
      api: httpApiFor(loopback.http),
      ...(batchLimit !== undefined ? { batchLimit } : {}),
      ...(maxResponseBytes !== undefined ? { maxResponseBytes } : {}),
      genesis,
      hardfork,
      // Their pool is there when some listener serves them.
      engine: {
        // Struct-log traces: one per core at a time (see traceOne).
        traceConcurrency: availableParallelism(),
        ...engine,
        jsTracers: Object.values(loopback).some((local) => local !== undefined && jsTracersFor(local)),
      },
      ...(anchor ? { anchor } : { checkpoint }),
      onLog: log,
      onCallDone: (call) => metrics?.onCallDone(call),
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
    // Worker threads resolve blocks through the same anchor, asked over each task's port.
    const threads = workers?.threads ?? defaultWorkerThreads()
    const poolOptions = (harden: boolean) =>
      createRangeWorkers({
        // JavaScript tracers need a thread to be ended on, even with ranges kept on the main one (--workers 0).
        threads: harden ? Math.max(1, threads) : threads,
        harden,
        ...(workers?.minBlocks !== undefined ? { minBlocks: workers.minBlocks } : {}),
        warm: workers?.warm === true,
        engine: daemon.engine,
        anchor,
        data: {
          upstream: upstreamUrl,
          api: ['eth', 'trace', 'debug'],
          chainId: daemon.engine.rules.chainId,
          genesis,
          hardfork,
          // Under consensus the workers take the anchor, never a checkpoint's walk.
          checkpoint: anchor ? undefined : checkpoint,
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
    if (queue?.work && !pool) {
      await jsPool?.close()
      throw new Error('--queue.work needs worker threads to run stretches on (not --workers 0)')
    }
    // With the queue, ranges go to the fleet's workers; this process's threads serve it only with --queue.work.
    const queued = queue
      ? createQueueWorkers({
          url: queue.redis,
          chainId: daemon.engine.rules.chainId,
          ...(workers?.minBlocks !== undefined ? { minBlocks: workers.minBlocks } : {}),
        })
      : undefined
    const queueWorker =
      queue?.work && pool
        ? startQueueWorker({
            url: queue.redis,
            chainId: daemon.engine.rules.chainId,
            concurrency: pool.size,
            ...(queue.lockMs !== undefined ? { lockMs: queue.lockMs } : {}),
            run: (text) => pool.run(text),
          })
        : undefined
    if (queued) daemon.engine.rangeWorkers = queued
    const handlers = new Map<string, RpcHandler>()
    /** The handler of a listener's namespaces and tracer gating (one per distinct pair). */
    const handlerOf = (served: readonly string[], jsTracers: boolean) => {
      const key = `${served.join(',')}|${jsTracers}`
      let handler = handlers.get(key)
      if (!handler) {
        handler = daemon.handlerFor(served, { jsTracers })
        handlers.set(key, handler)
      }
      return handler
    }
    const infos: ListenerInfo[] = []
    const listenerOf = (kind: ListenerInfo['kind'], address: string, local: boolean, ws = false) => {
      const served = ws ? wsApiFor(local) : httpApiFor(local)
      const jsTracers = jsTracersFor(local)
      return {
        handler: handlerOf(served, jsTracers),
        seen: (url: string) => infos.push({ kind, url, address, loopback: local, api: served, jsTracers }),
      }
    }
    metrics = createMetrics(daemon.engine, queued ? { queue: { owner: queued, worker: queueWorker } } : {})
    const health = createHealth(daemon.engine, sharedKv ? { sharedHealthy: sharedKv.healthy } : {})
    /** What a listener serves besides JSON-RPC: /metrics and the full /health on loopback or with --metrics. */
    const observability = (local: boolean | undefined) => (local || metricsEverywhere ? { metrics, health } : {})
    const http = listenerOf('http', host, loopback.http)
    const httpWs = listenerOf('ws', host, loopback.http, true)
    const shared = {
      ...(corsDomains ? { corsDomains } : {}),
      ...(wsOrigins ? { wsOrigins } : {}),
      ...(vhosts ? { vhosts } : {}),
      ...(maxQueuedBytes !== undefined ? { maxQueuedBytes } : {}),
      explorerDir,
      // And what this server's source tracer knows: the page asks it for a transaction only when it can match something.
      explorerInfo: {
        ...((explorerInfo as object | undefined) ?? {}),
        sourceTracer: {
          contracts: daemon.engine.options.sources?.size ?? 0,
          sourcify: daemon.engine.sourceLookup !== undefined,
          // The page asks it too, for its source pane (Sourcify answers any origin: CORS `*`).
          ...(daemon.engine.options.sourcify ? { sourcifyUrl: daemon.engine.options.sourcify } : {}),
        },
      },
      explorerSources,
      counters: () => engineCounters(daemon.engine),
      // GraphQL resolves every field with the verified eth_* and debug_* methods (an internal handler).
      graphql: graphql
        ? createGraphqlHandler(daemon.handlerFor(['eth', 'debug', 'txpool'], { internal: true }))
        : undefined,
    }
    const ownWsPort = ws?.port !== undefined
    const closables: { close(): Promise<void> }[] = []
    if (pool) closables.push(pool)
    if (queued) closables.push(queued)
    if (queueWorker) closables.push(queueWorker)
    if (jsPool) closables.push(jsPool)
    const closeAll = async () => {
      for (const listener of closables.splice(0).reverse()) await listener.close().catch(() => undefined)
    }
    try {
      const server = await createServer({
        handler: http.handler,
        wsHandler: httpWs.handler,
        websocket: !ownWsPort,
        host,
        port,
        ...shared,
        ...observability(loopback.http),
      })
      closables.push(server)
      http.seen(server.url)
      if (!ownWsPort) httpWs.seen(server.wsUrl)
      const extra: ExtraListeners = {}
      if (ownWsPort) {
        const wsServer = await createServer({
          handler: httpWs.handler,
          host,
          port: ws.port as number,
          ...shared,
          ...observability(loopback.http),
        })
        closables.push(wsServer)
        extra.wsListenerUrl = wsServer.wsUrl
        httpWs.seen(wsServer.wsUrl)
      }
      if (https && loopback.https !== undefined) {
        const secureHost = https.host ?? host
        const secureHttp = listenerOf('https', secureHost, loopback.https)
        const secureWs = listenerOf('ws', secureHost, loopback.https, true)
        const secure = await createServer({
          handler: secureHttp.handler,
          wsHandler: secureWs.handler,
          host: secureHost,
          port: https.port,
          tls: { key: https.key, cert: https.cert },
          ...shared,
          ...observability(loopback.https),
        })
        closables.push(secure)
        extra.httpsUrl = secure.url
        secureHttp.seen(secure.url)
        secureWs.seen(secure.wsUrl)
      }
      if (socketUrl && socketTarget && loopback.socket !== undefined) {
        const address = 'path' in socketTarget ? socketTarget.path : socketTarget.host
        const listener = listenerOf('socket', address, loopback.socket, true)
        const socket = await createSocketServer({
          handler: listener.handler,
          url: socketUrl,
          ...(maxQueuedBytes !== undefined ? { maxQueuedBytes } : {}),
        })
        closables.push(socket)
        extra.socketUrl = socket.url
        listener.seen(socket.url)
      }
      return {
        ...daemon,
        ...server,
        ...extra,
        // The HTTP listener's handler is the daemon's (what an embedder calls in process).
        handler: http.handler,
        wsUrl: extra.wsListenerUrl ?? server.wsUrl,
        listeners: infos,
        upstream,
        lightClient,
        beaconTrust: trusted?.start,
        close: async () => {
          await closeAll()
          await upstream.close()
          await sharedKv?.close()
        },
      }
    } catch (err) {
      await closeAll()
      throw err
    }
  } catch (err) {
    await upstream.close()
    await sharedKv?.close()
    throw err
  }
}
