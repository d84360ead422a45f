import { engineKind, provideWasmEvmModule } from '../wasm/wasmEngineState.js'
import { loadWasmEvmModule } from './loadWasmEvmModule.js'
import type { GethGenesis } from '@ethereumjs/common'
import { availableParallelism } from 'node:os'
import { createEdgetrace as createDaemon } from '../createEdgetrace.js'
import { ProviderRpcError } from '../errors/provider.js'
import { DEFAULT_ENGINE_OPTIONS, type EngineOptions } from '../exec/createEngine.js'
import {
  type EdgetraceProvider,
  type EdgetraceProviderEvents,
  LIBRARY_API,
  checkRequestArguments,
  createEdgetraceProvider,
} from '../rpc/createEdgetraceProvider.js'
import { createPushSession } from '../rpc/createPushSession.js'
import { cutTooDeepRequests } from '../rpc/jsonDepth.js'
import type { JsonRpcResponse } from '../types/jsonRpc.js'
import type { WebSocketConstructor } from '../upstream/createUpstream.js'
import { type UpstreamOption, resolveUpstream } from '../upstream/resolveUpstream.js'
import { createListeners } from '../utils/createListeners.js'
import { createRangeWorkers, defaultWorkerThreads } from './workers/createRangeWorkers.js'

/** `createEdgetrace`'s options. Only `upstream` is needed. */
export type CreateEdgetraceOptions = {
  /**
   * Where state is read from: a URL (`http(s)://`, `ws(s)://`) of any node with `eth_getProof`; an
   * EIP-1193 provider (viem's client or transport, ethers' provider wrapped as
   * `{ request: ({ method, params }) => provider.send(method, params) }`, a wallet's); an upstream
   * client made with `createUpstream` (headers, timeouts, retries of your choice); or a list of
   * these as fallbacks — each call goes to the first entry that answers, an entry that cannot be
   * reached is skipped for 30 s. Everything it answers is verified all the same (proofs against the
   * block's header).
   */
  upstream: UpstreamOption
  /**
   * The namespaces served (as the server's `--http.api`); default eth (with edgetrace_*), vendor,
   * debug, trace, txpool, web3, net. A method of another namespace rejects with -32601.
   */
  api?: readonly string[] | undefined
  /** As `--hardfork`: one hardfork for every block (a devnet whose chain id edgetrace does not know). */
  hardfork?: string | undefined
  /** As `--chain`: a geth-style genesis naming the forks of a chain edgetrace does not know. */
  genesis?: GethGenesis | undefined
  /**
   * As `--checkpoint`: a block hash you trust. Blocks asked by number or tag are then accepted only
   * if they link to it by parent hashes; without it, which block is number N is the upstream's word.
   */
  checkpoint?: string | undefined
  /** As `--rpc.batch.limit`: the largest JSON-RPC batch (default 100). */
  batchLimit?: number | undefined
  /** As the server's engine flags: gas cap (`rpcGasCap`), EVM timeout (`evmTimeoutMs`), cache budget, `unverified`… */
  engine?: Partial<EngineOptions> | undefined
  /**
   * The upstream client's settings for URLs: per-request `timeoutMs` (default 30 s), `retries` of a
   * failed request (default 5; 1 for each entry of a list), `unreachableCooldownMs` (how long an
   * entry that proved unreachable is skipped; default 0, 30 s in a list), `headers` for http(s) URLs.
   */
  upstreamOptions?:
    | {
        /** Per request (HTTP request or WebSocket frame), ms (default 30 s). */
        timeoutMs?: number | undefined
        /** Retries of a failed request: 429, 5xx, timeout, dropped connection (default 5; 1 for each entry of a list). */
        retries?: number | undefined
        /** How long an upstream that proved unreachable is skipped, ms (default 0; 30 s for each entry of a list). */
        unreachableCooldownMs?: number | undefined
        /** HTTP headers sent with every request to an http(s) URL (an API key); never logged. */
        headers?: Record<string, string> | undefined
      }
    | undefined
  /** Hears what edgetrace has to say outside a request (an upstream retried, an entry of a list skipped). */
  onLog?: ((line: string) => void) | undefined
}

/** Node 20 has no global WebSocket: ws(s):// URLs get the `ws` package's class. */
async function webSocketFor(option: UpstreamOption): Promise<WebSocketConstructor | undefined> {
  const entries: readonly unknown[] = Array.isArray(option) ? option : [option]
  if (!entries.some((e) => typeof e === 'string' && /^wss?:\/\//i.test(e))) return undefined
  const global = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket
  return global ?? ((await import('ws')).WebSocket as unknown as WebSocketConstructor)
}

/**
 * edgetrace as a library in Node: the daemon in this process, in front of `upstream`, behind an
 * EIP-1193 provider. Resolves once the upstream told its chain id (a checkpoint given is verified
 * then); rejects when it cannot start (a bad option: -32602 naming it; an upstream nobody answers).
 *
 * ```ts
 * const edgetrace = await createEdgetrace({ upstream: 'https://your-node.example' })
 * const client = createPublicClient({ transport: custom(edgetrace) })
 * const tree = await edgetrace.trace(hash)
 * ```
 *
 * JavaScript tracers run on a worker thread of their own, which needs a URL to reach the upstream:
 * with an EIP-1193 provider or a list they are refused (the server, `startEdgetrace`, has them).
 */
export async function createNodeEdgetrace(options: CreateEdgetraceOptions): Promise<EdgetraceProvider> {
  if (typeof options !== 'object' || options === null) {
    throw new ProviderRpcError({ code: -32602, message: 'createEdgetrace expects options: { upstream, … }' })
  }
  const { upstream: option, api = LIBRARY_API, hardfork, genesis, checkpoint, batchLimit, engine, onLog } = options
  const settings = options.upstreamOptions ?? {}
  const upstream = resolveUpstream(option, {
    webSocket: await webSocketFor(option),
    timeoutMs: settings.timeoutMs,
    retries: settings.retries,
    unreachableCooldownMs: settings.unreachableCooldownMs,
    headers: settings.headers,
    onLog,
    // No upstream call is waited for longer than a request may take.
    callTimeoutMs: engine?.evmTimeoutMs ?? DEFAULT_ENGINE_OPTIONS.evmTimeoutMs,
  })
  // The wasm EVM (the default engine): dist/wasm/evm.wasm, or compiled from the sources.
  if (engineKind(engine) === 'wasm') provideWasmEvmModule(loadWasmEvmModule)
  const daemon = await createDaemon({
    upstream,
    api,
    ...(batchLimit !== undefined ? { batchLimit } : {}),
    genesis,
    hardfork,
    engine: { traceConcurrency: availableParallelism(), ...engine },
    checkpoint,
    onLog,
    onInternalError: (err, method) =>
      onLog?.(`internal error in ${method}: ${err instanceof Error ? err.stack : String(err)}`),
  }).catch(async (err: unknown) => {
    await upstream.close()
    throw err
  })
  // JavaScript tracers: a hardened thread of their own, started on first use, reading the same URL.
  const jsPool =
    typeof option === 'string' && daemon.engine.options.jsTracers !== false
      ? createRangeWorkers({
          threads: Math.max(1, defaultWorkerThreads()),
          harden: true,
          engine: daemon.engine,
          data: {
            upstream: option,
            api: ['eth', 'trace', 'debug'],
            chainId: daemon.engine.rules.chainId,
            genesis,
            hardfork,
            checkpoint,
          },
        })
      : undefined
  daemon.engine.jsTracerWorkers = jsPool

  const listeners = createListeners<EdgetraceProviderEvents>()
  const emit = listeners.emit
  // eth_subscribe: notifications are EIP-1193 `message` events, heard in this process as they come.
  const session = createPushSession({
    send(text) {
      const { params } = JSON.parse(text) as { params: { subscription: string; result: unknown } }
      emit('message', { type: 'eth_subscription', data: params })
    },
    queuedBytes: () => 0,
    maxQueuedBytes: Number.POSITIVE_INFINITY,
    drop: () => undefined,
  })
  const chainId = `0x${daemon.engine.rules.chainId.toString(16)}`
  queueMicrotask(() => emit('connect', { chainId }))
  let closed = false
  let nextId = 1

  return createEdgetraceProvider({
    async request(args) {
      checkRequestArguments(args)
      if (closed) throw new ProviderRpcError({ code: 4900, message: 'edgetrace is closed' })
      const message = { jsonrpc: '2.0', id: nextId++, method: args.method, params: args.params ?? [] }
      // Through the wire form, as every transport: the answer is what the server would send.
      const text = await daemon.handler.handleText(JSON.stringify(cutTooDeepRequests(message)), { session })
      const res = JSON.parse(text!) as JsonRpcResponse
      if ('error' in res) throw new ProviderRpcError(res.error)
      return res.result
    },
    on(event, listener) {
      listeners.add(event, listener)
      return this as never
    },
    removeListener(event, listener) {
      listeners.remove(event, listener)
      return this as never
    },
    async close() {
      if (closed) return
      closed = true
      session.end()
      await jsPool?.close().catch(() => undefined)
      await upstream.close()
      emit('disconnect', new ProviderRpcError({ code: 4900, message: 'edgetrace is closed' }))
    },
  })
}
