import type { GethGenesis } from '@ethereumjs/common'
import { createChainRules } from './chain/createChainRules.js'
import { cacheJumpAnalysis } from './evm/cacheJumpAnalysis.js'
import { type Engine, type EngineOptions, createEngine } from './exec/createEngine.js'
import { type CreateRpcHandlerParameters, type RpcHandler, createRpcHandler } from './rpc/createRpcHandler.js'
import { bindNamespace, methodPrefix } from './rpc/defineNamespace.js'
import { NAMESPACES } from './rpc/namespaces.js'
import { servedPrefixes } from './rpc/servedPrefixes.js'
import type { ProgressSink } from './types/progress.js'
import type { PersistentStore } from './state/createPersistentBacking.js'
import { UpstreamUnavailableError } from './errors/upstream.js'
import type { Upstream } from './upstream/types.js'
import type { ExecutionAnchor } from './chain/createHeaderStore.js'

export type CreateEdgetraceParameters = {
  upstream: Upstream
  /** Namespaces served (`--http.api`), default eth and vendor. */
  api?: readonly string[]
  /** `--rpc.batch.limit`, default 100. */
  batchLimit?: number
  /** `--rpc.response.limit`: most bytes of one message's answer (0, the default: no limit). */
  maxResponseBytes?: number
  /** A geth-style genesis (`--chain`). */
  genesis?: GethGenesis | undefined
  /** `--hardfork`. */
  hardfork?: string | undefined
  engine?: Partial<EngineOptions>
  /** Persistent tier of the cache (the browser's IndexedDB store). */
  persistentStore?: PersistentStore | undefined
  /** The chain id when already known (an offline start); otherwise the upstream is asked. */
  chainId?: bigint | undefined
  onInternalError?: (err: unknown, method: string) => void
  /** Told of every call a client made once it is answered (the Node server's /metrics count them). */
  onCallDone?: CreateRpcHandlerParameters['onCallDone']
  /** Hears the progress of every long call (trace_filter, a block traced): the Node server logs it. */
  onProgress?: ProgressSink | undefined
  /** At most one progress event per call this often, ms (default 250). */
  progressEveryMs?: number | undefined
  /**
   * `--checkpoint`: a block hash the user trusts. Blocks asked by number or tag are then accepted only
   * if they link to it by parent hashes; without it, which block is number N is the upstream's word.
   */
  checkpoint?: string | undefined
  /** Consensus' word on which block is real: a beacon light client's (tags and numbers resolve through it). */
  anchor?: ExecutionAnchor | undefined
  /** Hears what the daemon has to say outside a request (long checkpoint walks). */
  onLog?: ((line: string) => void) | undefined
  /**
   * This daemon is a range worker of another (a worker thread, a pool's Web Worker): its handlers
   * also serve the stretches that one hands it which no client has (methods `forRangeWorkers`).
   */
  rangeWorker?: boolean | undefined
}

export type Edgetrace = {
  engine: Engine
  handler: RpcHandler
  /**
   * Another handler on the same engine serving other namespaces (`--ws.api`, a listener of its own).
   * `internal`: for the daemon's own use (GraphQL's resolvers) — its namespaces start nothing they
   * observe (the txpool's upstream feed), since no client was offered them. `jsTracers: false`:
   * tracer code is refused through it (a listener beyond loopback).
   */
  handlerFor(api: readonly string[], options?: { internal?: boolean; jsTracers?: boolean }): RpcHandler
}

export const DEFAULT_API = ['eth', 'vendor'] as const

/**
 * The transport-independent daemon: asks the upstream for its chain id, sets up the chain's rules,
 * the verified-state engine and the JSON-RPC handler with every namespace. The Node server and the
 * browser worker both start here.
 */
export async function createEdgetrace({
  upstream,
  api = DEFAULT_API,
  batchLimit = 100,
  maxResponseBytes = 0,
  genesis,
  hardfork,
  engine: engineOptions = {},
  persistentStore,
  chainId: knownChainId,
  onInternalError,
  onCallDone,
  onProgress,
  progressEveryMs,
  checkpoint,
  anchor,
  onLog,
  rangeWorker = false,
}: CreateEdgetraceParameters): Promise<Edgetrace> {
  const chainId = knownChainId ?? BigInt(await upstream.request<string>('eth_chainId', []))
  const rules = createChainRules({ chainId, genesis, hardfork })
  await cacheJumpAnalysis()
  const engine = createEngine({
    upstream,
    rules,
    options: engineOptions,
    persistentStore,
    checkpoint,
    anchor,
    log: onLog,
  })
  // The checkpoint is fetched by hash and verified now, so a wrong one fails the start, not every later
  // call; only an unreachable upstream (a browser starting offline) leaves that to the first use.
  await engine.headers.checkpoint().catch((err: unknown) => {
    if (!(err instanceof UpstreamUnavailableError)) throw err
  })
  const handlerFor = (served: readonly string[], options: { internal?: boolean; jsTracers?: boolean } = {}) => {
    const named = servedPrefixes(served, NAMESPACES)
    const enabled = [...named, ...NAMESPACES.filter((n) => n.alwaysServed).map(methodPrefix)]
    return createRpcHandler({
      namespaces: NAMESPACES.flatMap((namespace) =>
        bindNamespace(namespace, engine, !options.internal && enabled.includes(methodPrefix(namespace)), {
          jsTracers: options.jsTracers ?? true,
          served: named,
          rangeWorker,
        }),
      ),
      // `vendor` (or its alias `erigon`) serves the erigon_* methods: the core gates by method prefix.
      enabled,
      batchLimit,
      // Internal callers (GraphQL's resolvers) read whole values, never sent as they are.
      maxResponseBytes: options.internal ? 0 : maxResponseBytes,
      ...(onInternalError ? { onInternalError } : {}),
      ...(onCallDone && !options.internal ? { onCallDone } : {}),
      ...(onProgress ? { onProgress } : {}),
      ...(progressEveryMs !== undefined ? { progressEveryMs } : {}),
      requestTimeoutMs: engine.options.evmTimeoutMs,
    })
  }
  return { engine, handler: handlerFor(api), handlerFor }
}
