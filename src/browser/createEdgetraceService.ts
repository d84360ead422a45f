import { type PooledWorker, createWebWorkerPool } from './createWebWorkerPool.js'
import { type EngineCounters, engineCounters } from '../exec/engineCounters.js'
import { engineKind, provideWasmEvmModule } from '../wasm/wasmEngineState.js'
import { defaultWasmEvmUrl, fetchWasmEvmModule } from './fetchWasmEvmModule.js'
import type { GethGenesis } from '@ethereumjs/common'
import { createStore, get, set } from 'idb-keyval'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, utf8ToBytes } from '@ethereumjs/util'
import { DEFAULT_API, type Edgetrace, createEdgetrace } from '../createEdgetrace.js'
import { InvalidParamsRpcError } from '../errors/rpc.js'
import { UpstreamUnavailableError } from '../errors/upstream.js'
import { DEFAULT_ENGINE_OPTIONS, type EngineOptions } from '../exec/createEngine.js'
import { cutTooDeepRequests } from '../rpc/jsonDepth.js'
import type { ProgressSink } from '../types/progress.js'
import type { RpcSession } from '../types/rpcSession.js'
import type { JsonRpcErrorObject, JsonRpcResponse } from '../types/jsonRpc.js'
import type { ChunkWriter } from '../types/chunkWriter.js'
import type { PersistentStoreStats } from '../state/createPersistentBacking.js'
import { resolveUpstream } from '../upstream/resolveUpstream.js'
import type { Eip1193Provider, Eip1193RequestArguments } from '../types/eip1193.js'
import { createIdbStore } from './createIdbStore.js'
import { createBeaconPins } from './createBeaconPins.js'
import type { ExecutionAnchor } from '../chain/createHeaderStore.js'
import { knownNetworkOfChainId } from '../chain/beacon/knownNetworks.js'
import { KNOWN_BOR_CHAINS } from '../chain/bor/borChains.js'
import { type PinnedLightClient, connectPinnedLightClient } from '../chain/beacon/connectPinnedLightClient.js'
import { BeaconChainMismatchError } from '../chain/beacon/resolveBeaconChain.js'
import { BaseError } from '../errors/base.js'
import { CheckpointTooOldError } from '../errors/consensus.js'
import { type SourceRegistry, createSourceRegistry } from '../sources/createSourceRegistry.js'
import { type NamedSourceFile, readSourceFiles } from '../sources/readSourceFiles.js'

/**
 * An upstream only the page holds (an EIP-1193 provider cannot cross postMessage): entry `page` of
 * the providers the page gave connectEdgetraceWorker, whose calls the page answers.
 */
export type PageUpstream = { page: number }

/**
 * The page's answer to one call of an upstream only the page holds (an EIP-1193 provider: a wallet's,
 * viem's, ethers'): its result, its JSON-RPC error, or a failure that carries none (unreachable).
 */
export type PageUpstreamReply = { result: unknown } | { error: JsonRpcErrorObject } | { failure: string }

/**
 * Answers the worker's calls of the page's upstreams (a comlink proxy): `index` is the entry's
 * `{ page: index }` in `config.upstream`.
 */
export type PageUpstreamBridge = (
  index: number,
  method: string,
  params: readonly unknown[],
) => Promise<PageUpstreamReply>

/** One build output for `config.sources`: a file's name and text, or a URL to fetch it from. */
export type EdgetraceSourceInput = { name: string; text: string } | { url: string }

/** How a browser edgetrace is set up (structured-clone values: it crosses postMessage). */
export type EdgetraceConfig = {
  /**
   * The upstream node, http(s):// or ws(s)://; or a list of upstreams as fallbacks (each call goes
   * to the first entry that answers), URLs and the page's own providers (`{ page: i }`).
   */
  upstream: string | readonly (string | PageUpstream)[]
  /** Namespaces served, as `--http.api` (default eth, vendor). */
  api?: readonly string[]
  /** As `--hardfork`: one hardfork for every block (devnets with an unknown chain id). */
  hardfork?: string
  /** As `--chain`: a geth-style genesis naming the forks. */
  genesis?: GethGenesis
  /** As `--rpc.batch.limit` (default 100). */
  batchLimit?: number
  /** Gas cap, EVM timeout, return-data limit, memory cache budget… as the Node server's flags. */
  engine?: Partial<EngineOptions>
  /**
   * With `engine.engine: 'wasm'`: the URL of the wasm EVM (dist/browser/edgetrace-evm.wasm of the
   * package; default: `edgetrace-evm.wasm` beside the worker script). Fetched at the first run that
   * needs it; if it cannot be loaded, every run stays on ethereumjs (said once in the console).
   */
  wasmUrl?: string
  /**
   * As `--sources`: build outputs for source-level debugging (the `edgetrace_sourceTracer` tracer),
   * each a file — `name` (its path, for a folder: `out/Token.sol/Token.json`) and its `text` — or a
   * `url` to fetch one from at the start. Files read: solc standard-JSON output (with its input
   * beside it, or `{input, output}` in one file), a Hardhat build-info, a Foundry artifact with its
   * build-info (see readSourceFiles). Contracts are matched to the code that runs by runtime bytecode,
   * never by address. A file that is none of these, or a URL that does not answer, fails the start,
   * naming it.
   */
  sources?: readonly EdgetraceSourceInput[]
  /**
   * The persistent IndexedDB cache: on by default, 256 MiB. `false` keeps everything in memory.
   * The database is named after the chain (chain id and genesis hash), so chains never mix.
   */
  cache?: false | { budgetBytes?: number; name?: string }
  /** Upstream client settings: per-request timeout, retries, and how long to stop asking an unreachable upstream (default 3 s). */
  upstreamOptions?: { timeoutMs?: number; retries?: number; unreachableCooldownMs?: number }
  /** At most one progress event per request this often, ms (default 200). */
  progressEveryMs?: number
  /**
   * As `--checkpoint`: a block hash you trust. Blocks asked by number or tag are then accepted only if
   * they link to it by parent hashes; without it, which block is number N is the upstream's word.
   */
  checkpoint?: string
  /**
   * As `--beacon.upstream` (with `--checkpoint ROOT`): which block is real is the beacon chain's word,
   * through a consensus light client of the beacon node at `url` (any Beacon API, http(s)://, that
   * answers this page's origin: CORS). Tags are its head, numbers its head's ancestors. `checkpoint`
   * is a beacon block root one trusts; without it the beacon node's finalized root is trusted on
   * first use. Either is pinned in IndexedDB per beacon chain, and later starts resume from the
   * newest finalized root verified (see connectPinnedLightClient). Not with `checkpoint` above, nor on
   * a Bor chain. mainnet, sepolia and hoodi (by chain id) bring their own beacon config.
   */
  beacon?: {
    url: string
    checkpoint?: string
    /** As `--checkpoint.force`: take a checkpoint (given, pinned or resumed) older than the weak-subjectivity bound, 14 days. */
    force?: boolean
  }
  /**
   * Web Workers long ranges fan out to (trace_filter, debug_getModifiedAccounts*, the ots searches'
   * block scans, the signers of Bor snapshot walks, over 64 blocks or more), each with its own
   * daemon on the same IndexedDB database;
   * default one per core (navigator.hardwareConcurrency), 0 for none. Only where this daemon runs in a dedicated worker.
   */
  workers?: number
  /**
   * A pool worker's own setting (set by the daemon that starts it, not by a page): freeze this
   * worker's realm with SES's lockdown() first, so that JavaScript tracers can run here.
   */
  harden?: boolean
  /**
   * A pool worker's own setting (set by the daemon that starts it, not by a page): serve the
   * stretches that daemon hands its workers which no client has (an ots search's block scan).
   */
  rangeWorker?: boolean
}

export type EdgetraceStatus = {
  upstream: string
  chainId: string
  api: readonly string[]
  /** Whether the upstream answered last time it was asked. */
  reachable: boolean
  /** Started without the upstream, from what the persistent cache remembered. */
  startedOffline: boolean
  /** Requests sent to the upstream so far (HTTP requests or WebSocket frames, retries included). */
  upstreamRequests: number
  persistent: (PersistentStoreStats & { database: string }) | null
  /** Running totals: proofs checked, cache hits, upstream round trips (the explorer shows each answer's share). */
  counters: EngineCounters
}

/** The transport-independent browser daemon: what the worker, the service worker and the provider talk to. */
export type EdgetraceService = {
  /** One JSON-RPC message (single or batch) → its response(s), exactly as the Node server would write them. */
  request(
    message: unknown,
    onProgress?: ProgressSink,
    session?: RpcSession,
  ): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined>
  /** JSON-RPC text in, response text out in chunks (big traces stream); false when nothing is owed. */
  requestStreaming(text: string, write: ChunkWriter, onProgress?: ProgressSink): Promise<boolean>
  status(): EdgetraceStatus
  /** Told when the upstream becomes unreachable or reachable again. */
  onReachability(listener: (reachable: boolean, reason?: string) => void): () => void
  /** Waits until everything cached so far is written to IndexedDB. */
  flush(): Promise<void>
  /** Empties the memory and the persistent cache. */
  clearCache(): Promise<void>
  close(): Promise<void>
  readonly daemon: Edgetrace
}

type Identity = { chainId: string; genesisHash: string | null }
const identities = () => createStore('edgetrace-upstreams', 'identity')
/**
 * Which upstream a remembered identity belongs to: a digest of its whole URL — two paths of one host
 * may be two chains, and the URL itself (which may hold a key) is never stored.
 */
const identityKey = (url: string) => `keccak:${bytesToHex(keccak_256(utf8ToBytes(url)))}`

/**
 * Starts edgetrace inside a browser context (a worker, a service worker, or a page): the same
 * JSON-RPC core, namespaces, gating and limits as the Node server, with a persistent IndexedDB
 * cache. It starts without the upstream when the cache has met this upstream before.
 */
export async function createEdgetraceService(
  config: EdgetraceConfig,
  {
    startWorker,
    anchor,
    pageUpstream,
  }: {
    /**
     * Starts one more daemon in a Web Worker (given where workers can be made: the range pool),
     * its blocks resolved through `anchor` when given.
     */
    startWorker?: ((config: EdgetraceConfig, anchor?: ExecutionAnchor) => Promise<PooledWorker>) | undefined
    /**
     * A pool worker's: the anchor of the daemon that started it (createRemoteAnchor), which its
     * blocks resolve through instead of a light client of its own for `config.beacon`.
     */
    anchor?: ExecutionAnchor | undefined
    /** Answers the calls of `config.upstream`'s `{ page: i }` entries (the page's EIP-1193 providers). */
    pageUpstream?: PageUpstreamBridge | undefined
  } = {},
): Promise<EdgetraceService> {
  checkConfig(config, pageUpstream !== undefined)
  // A pool worker serves JavaScript tracers: its realm is hardened before any request runs.
  if (config.harden === true) await import('../tracing/js/hardenRealm.js')
  const listeners = new Set<(reachable: boolean, reason?: string) => void>()
  let reachable = true
  // The page's own providers are asked through the page; the workers a pool would start could not reach them.
  const pageHeld = typeof config.upstream !== 'string'
  const bridged = typeof config.upstream !== 'string' && config.upstream.some((entry) => typeof entry !== 'string')
  const upstream = resolveUpstream(
    typeof config.upstream === 'string'
      ? config.upstream
      : config.upstream.map((entry) => (typeof entry === 'string' ? entry : pageProvider(pageUpstream!, entry.page))),
    {
      timeoutMs: config.upstreamOptions?.timeoutMs ?? 30_000,
      retries: config.upstreamOptions?.retries ?? (pageHeld ? 1 : 2),
      unreachableCooldownMs: config.upstreamOptions?.unreachableCooldownMs ?? (pageHeld ? 30_000 : 3_000),
      // No upstream call is waited for longer than a request may take (as the Node server).
      callTimeoutMs: config.engine?.evmTimeoutMs ?? DEFAULT_ENGINE_OPTIONS.evmTimeoutMs,
      onReachability: (r, reason) => {
        reachable = r
        for (const l of listeners) l(r, reason)
      },
    },
  )
  const persistentWanted = config.cache !== false && typeof indexedDB !== 'undefined'

  // Which chain: the upstream's chain id and genesis hash (one round trip), or, offline, what was remembered.
  let identity: Identity
  let startedOffline = false
  try {
    const [chainId, genesis] = await Promise.all([
      upstream.request<string>('eth_chainId'),
      upstream.request<{ hash?: string } | null>('eth_getBlockByNumber', ['0x0', false]).catch((err: unknown) => {
        if (err instanceof UpstreamUnavailableError) throw err
        return null
      }),
    ])
    identity = { chainId: `0x${BigInt(chainId).toString(16)}`, genesisHash: genesis?.hash?.toLowerCase() ?? null }
    if (persistentWanted)
      await set(identityKey(upstreamKey(config.upstream)), identity, identities()).catch(() => undefined)
  } catch (err) {
    const remembered =
      persistentWanted && err instanceof UpstreamUnavailableError
        ? await get<Identity>(identityKey(upstreamKey(config.upstream)), identities()).catch(() => undefined)
        : undefined
    if (!remembered) {
      await upstream.close()
      throw err
    }
    identity = remembered
    startedOffline = true
    reachable = false
  }

  const cacheConfig = config.cache === false ? undefined : config.cache
  const database =
    cacheConfig?.name ??
    `edgetrace-${BigInt(identity.chainId)}-${identity.genesisHash?.slice(2, 18) ?? 'unknown'}${config.engine?.unverified ? '-unverified' : ''}`
  const persistentStore = persistentWanted
    ? await createIdbStore({
        name: database,
        ...(cacheConfig?.budgetBytes !== undefined ? { budgetBytes: cacheConfig.budgetBytes } : {}),
      }).catch(() => undefined)
    : undefined
  const api = config.api ?? DEFAULT_API
  // Consensus: a beacon node that does not verify fails the start. A known network (by the chain id)
  // brings its own config, and its beacon node must be of that chain. A pool worker runs none: its
  // blocks resolve through the anchor of the daemon that started it.
  const lightClient =
    config.beacon && !anchor
      ? await connectConsensus(config, BigInt(identity.chainId)).catch(async (err: unknown) => {
          await upstream.close()
          throw err
        })
      : undefined
  // The wasm EVM (the default engine), fetched at the first run that needs it; where it cannot be had
  // (no such file beside the worker, no location to resolve it against) ethereumjs runs, said once.
  if (engineKind(config.engine) === 'wasm') {
    const { wasmUrl } = config
    provideWasmEvmModule(async () => fetchWasmEvmModule(wasmUrl ?? defaultWasmEvmUrl()))
  }
  const sources = config.sources?.length
    ? await loadSources(config.sources).catch(async (err: unknown) => {
        await upstream.close()
        throw err
      })
    : undefined
  const engineOptions = sources ? { ...config.engine, sources } : config.engine
  const daemon = await createEdgetrace({
    upstream,
    api,
    chainId: BigInt(identity.chainId),
    ...(config.batchLimit !== undefined ? { batchLimit: config.batchLimit } : {}),
    genesis: config.genesis,
    hardfork: config.hardfork,
    ...(engineOptions ? { engine: engineOptions } : {}),
    persistentStore,
    progressEveryMs: config.progressEveryMs ?? 200,
    checkpoint: config.checkpoint,
    anchor: anchor ?? lightClient?.anchor,
    onInternalError: (err, method) => console.error(`edgetrace: internal error in ${method}`, err),
    rangeWorker: config.rangeWorker === true,
  }).catch(async (err: unknown) => {
    // e.g. a checkpoint the upstream does not know: the start fails, and leaves no connection open.
    await upstream.close()
    throw err
  })

  // Long ranges fan out to workers like this one, sharing this daemon's IndexedDB database.
  const threads = config.workers ?? (typeof navigator !== 'undefined' ? (navigator.hardwareConcurrency ?? 0) : 0)
  // Two pools: ranges on plain workers, JavaScript tracers on hardened ones (a locked-down realm
  // runs the daemon's own work several times slower, so ranges are kept out of it).
  // JavaScript tracers need a worker to be ended on, even with ranges kept here (workers: 0).
  const startPool = (harden: boolean) =>
    startWorker && !bridged && (threads > 0 || harden)
      ? createWebWorkerPool({
          size: harden ? Math.max(1, threads) : threads,
          start: () =>
            startWorker(
              {
                ...config,
                // The source tracer runs on this daemon only (NativeTracer.local): the workers need no sources.
                sources: [],
                workers: 0,
                harden,
                rangeWorker: true,
                cache: persistentStore ? { ...cacheConfig, name: database } : false,
              },
              anchor ?? lightClient?.anchor,
            ),
        })
      : undefined
  const pool = startPool(false)
  const jsPool = startPool(true)
  daemon.engine.rangeWorkers = pool
  daemon.engine.jsTracerWorkers = jsPool

  return {
    daemon,
    async request(message, onProgress, session) {
      // JSON.stringify recurses: an over-deep request is swapped for a stand-in the handler refuses alike.
      const text = await daemon.handler.handleText(JSON.stringify(cutTooDeepRequests(message)), { onProgress, session })
      return text === undefined ? undefined : JSON.parse(text)
    },
    requestStreaming: (text, write, onProgress) => daemon.handler.handleTextStreaming(text, write, { onProgress }),
    status: () => ({
      upstream: upstream.url,
      chainId: identity.chainId,
      api: [...api],
      reachable,
      startedOffline,
      upstreamRequests: upstream.stats().requests,
      persistent: daemon.engine.persistent ? { ...daemon.engine.persistent.store.stats(), database } : null,
      counters: engineCounters(daemon.engine),
    }),
    onReachability(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    flush: async () => {
      await daemon.engine.persistent?.flush()
    },
    async clearCache() {
      daemon.engine.cache.clear()
      await daemon.engine.persistent?.flush()
      await daemon.engine.persistent?.store.clear()
    },
    async close() {
      await Promise.all([pool?.close(), jsPool?.close()])
      await daemon.engine.persistent?.flush().catch(() => undefined)
      await upstream.close()
    },
  }
}

/**
 * `config.sources` as a registry: URLs fetched (all at once), then every file read together (a
 * Foundry artifact finds its build-info among the others). A file read as nothing fails the start.
 */
async function loadSources(inputs: readonly EdgetraceSourceInput[]): Promise<SourceRegistry> {
  const files = await Promise.all(
    inputs.map(async (input, i): Promise<NamedSourceFile> => {
      if ('text' in input) return input
      const response = await fetch(input.url).catch((err: Error) => {
        throw new InvalidParamsRpcError(
          `invalid config.sources[${i}]: ${input.url} could not be fetched: ${err.message}`,
        )
      })
      if (!response.ok)
        throw new InvalidParamsRpcError(`invalid config.sources[${i}]: ${input.url} answered HTTP ${response.status}`)
      return { name: input.url, text: await response.text() }
    }),
  )
  const { contracts, unread } = readSourceFiles(files)
  if (unread.length > 0) {
    const { name, why } = unread[0]!
    throw new InvalidParamsRpcError(
      `invalid config.sources[${files.findIndex((f) => f.name === name)}] (${name}): ${why} — expected solc standard-JSON output, a Hardhat build-info or a Foundry artifact with its build-info`,
    )
  }
  return createSourceRegistry(contracts)
}

/** The light client of `config.beacon`, for the execution chain `chainId` (a Bor chain has none). */
async function connectConsensus(config: EdgetraceConfig, chainId: bigint): Promise<PinnedLightClient> {
  const bor =
    KNOWN_BOR_CHAINS.find((c) => BigInt(c.chainId) === chainId)?.name ??
    ((config.genesis?.config as Record<string, unknown> | undefined)?.bor !== undefined
      ? `Bor chain ${chainId}`
      : undefined)
  if (bor)
    throw new InvalidParamsRpcError(
      `invalid config.beacon: ${bor}'s blocks are sealed by its validator set, not by Ethereum's beacon chain — leave config.beacon out (config.checkpoint takes a block hash)`,
    )
  const { url, checkpoint, force } = config.beacon!
  return connectPinnedLightClient({
    url,
    checkpoint,
    force,
    given: 'config',
    pins: createBeaconPins(),
    network: knownNetworkOfChainId(chainId),
    // A sync a request starts is given up with the request (a beacon node that never answers holds none).
    syncTimeoutMs: config.engine?.evmTimeoutMs ?? DEFAULT_ENGINE_OPTIONS.evmTimeoutMs,
    rename: inConfigTerms,
  })
}

/** The Node server's flags, as the config's fields say them. */
const CONFIG_TERMS: [flag: string, field: string][] = [
  ['--checkpoint.force', 'config.beacon.force: true'],
  ['--checkpoint ROOT', 'config.beacon.checkpoint'],
  ['with --checkpoint', 'in config.beacon.checkpoint'],
]

/** A consensus start's error said with the config's fields (the shared flow's messages name the Node server's flags). */
function inConfigTerms(err: unknown): unknown {
  if (err instanceof BeaconChainMismatchError)
    return new BeaconChainMismatchError(`config.beacon.url: ${err.shortMessage}`)
  if (!(err instanceof BaseError)) return err
  const say = (text: string) => CONFIG_TERMS.reduce((t, [flag, field]) => t.replaceAll(flag, field), text)
  if (err instanceof CheckpointTooOldError) return new CheckpointTooOldError(say(err.shortMessage), err.data)
  if (err.constructor !== BaseError) return err
  return new BaseError(say(err.shortMessage), { metaMessages: err.metaMessages.map(say), details: err.details })
}

/** What the remembered identity of `upstream` is keyed by: the URL, or the list as JSON. */
const upstreamKey = (upstream: EdgetraceConfig['upstream']) =>
  typeof upstream === 'string' ? upstream : JSON.stringify(upstream)

/** Entry `index` of the page's providers, asked through the page (`bridge`): its errors as the page saw them. */
function pageProvider(bridge: PageUpstreamBridge, index: number): Eip1193Provider {
  return {
    async request(args: Eip1193RequestArguments) {
      const reply = await bridge(index, args.method, (args.params ?? []) as readonly unknown[])
      if ('result' in reply) return reply.result
      if ('error' in reply) throw Object.assign(new Error(reply.error.message), reply.error)
      throw new Error(reply.failure)
    },
  } as Eip1193Provider
}

/** A config from another context (postMessage, IndexedDB) is checked before anything starts: the error names the field. */
function checkConfig(config: EdgetraceConfig, pageBridged: boolean): void {
  const bad = (field: string, expected: string, got: unknown) => {
    throw new InvalidParamsRpcError(
      `invalid config.${field}: expected ${expected}, got ${JSON.stringify(got) ?? String(got)}`,
    )
  }
  if (typeof config !== 'object' || config === null) bad('', 'an object', config)
  const isUrl = (u: unknown) => typeof u === 'string' && /^(https?|wss?):\/\/[^\s/]+/i.test(u)
  if (Array.isArray(config.upstream)) {
    if (config.upstream.length === 0) bad('upstream', 'at least one upstream', config.upstream)
    config.upstream.forEach((entry: unknown, i) => {
      if (isUrl(entry)) return
      const page = (entry as { page?: unknown } | null)?.page
      if (!Number.isSafeInteger(page) || (page as number) < 0)
        bad(`upstream[${i}]`, 'an http(s):// or ws(s):// URL, or { page: i } (a provider of the page)', entry)
      if (!pageBridged)
        bad(
          `upstream[${i}]`,
          "a URL: a page's provider needs the page to answer its calls (connectEdgetraceWorker's upstreams)",
          entry,
        )
    })
  } else if (!isUrl(config.upstream)) bad('upstream', 'an http(s):// or ws(s):// URL', config.upstream)
  if (config.api !== undefined && (!Array.isArray(config.api) || !config.api.every((a) => typeof a === 'string')))
    bad('api', 'an array of namespace names', config.api)
  if (config.batchLimit !== undefined && (!Number.isSafeInteger(config.batchLimit) || config.batchLimit < 1))
    bad('batchLimit', 'a positive integer', config.batchLimit)
  if (config.hardfork !== undefined && typeof config.hardfork !== 'string')
    bad('hardfork', 'a hardfork name', config.hardfork)
  if (
    config.checkpoint !== undefined &&
    (typeof config.checkpoint !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(config.checkpoint))
  ) {
    bad('checkpoint', 'a block hash (0x and 64 hex digits)', config.checkpoint)
  }
  if (config.beacon !== undefined) {
    const { url, checkpoint, force } = (config.beacon ?? {}) as { url?: unknown; checkpoint?: unknown; force?: unknown }
    if (typeof config.beacon !== 'object' || config.beacon === null)
      bad('beacon', '{ url, checkpoint? }: a beacon node and the beacon block root to trust', config.beacon)
    if (typeof url !== 'string' || !/^https?:\/\/[^\s/]+/i.test(url))
      bad('beacon.url', "an http(s):// URL of a beacon node's Beacon API", url)
    if (checkpoint !== undefined && (typeof checkpoint !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(checkpoint)))
      bad('beacon.checkpoint', 'a beacon block root (0x and 64 hex digits)', checkpoint)
    if (force !== undefined && typeof force !== 'boolean')
      bad('beacon.force', 'true or false (take a checkpoint older than the weak-subjectivity bound)', force)
    if (config.checkpoint !== undefined)
      bad(
        'checkpoint',
        'no execution block hash with config.beacon (consensus decides which block is real; its trusted root is config.beacon.checkpoint)',
        config.checkpoint,
      )
  }
  if (config.workers !== undefined && (!Number.isSafeInteger(config.workers) || config.workers < 0))
    bad('workers', 'a whole number of Web Workers (0: none)', config.workers)
  const traceCompat = config.engine?.traceCompat
  if (traceCompat !== undefined && typeof traceCompat !== 'boolean')
    bad('engine.traceCompat', 'true or false (--trace.compat)', traceCompat)
  const sourcify = config.engine?.sourcify
  if (sourcify !== undefined && (typeof sourcify !== 'string' || !/^https?:\/\/[^\s/]+/i.test(sourcify)))
    bad('engine.sourcify', "an http(s):// URL of a Sourcify server's APIv2 (--sourcify)", sourcify)
  const engine = config.engine?.engine
  if (engine !== undefined && engine !== 'wasm' && engine !== 'ethereumjs')
    bad('engine.engine', "'wasm' or 'ethereumjs' (--engine)", engine)
  if (
    config.wasmUrl !== undefined &&
    (typeof config.wasmUrl !== 'string' || !URL.canParse(config.wasmUrl, 'http://x/'))
  )
    bad('wasmUrl', 'the URL of the wasm EVM (edgetrace-evm.wasm)', config.wasmUrl)
  if (config.sources !== undefined) {
    if (!Array.isArray(config.sources))
      bad('sources', 'an array of build outputs: { name, text } files or { url }', config.sources)
    config.sources.forEach((entry: unknown, i) => {
      const e = (entry ?? {}) as { name?: unknown; text?: unknown; url?: unknown }
      const file = typeof e.name === 'string' && typeof e.text === 'string' && e.url === undefined
      const url = typeof e.url === 'string' && URL.canParse(e.url, 'http://x/') && e.text === undefined
      if (typeof entry !== 'object' || entry === null || !(file || url))
        bad(
          `sources[${i}]`,
          '{ name, text } (a build output file: its path and text) or { url } (where to fetch one)',
          typeof e.text === 'string' ? { ...e, text: `${e.text.slice(0, 40)}…` } : entry,
        )
    })
  }
}
