import { bytesToHex, setLengthLeft } from '@ethereumjs/util'
import type { ChainRules } from '../chain/createChainRules.js'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import { bigIntToHex32 } from '../state/bigIntToHex32.js'
import type { Hex } from '../types/hex.js'
import { type ExecutionAnchor, type HeaderStore, createHeaderStore } from '../chain/createHeaderStore.js'
import { type LruCache, createLruCache } from '../utils/createLruCache.js'
import {
  type PersistentBacking,
  type PersistentStore,
  createPersistentBacking,
} from '../state/createPersistentBacking.js'
import { createPersistentCodec } from '../state/createPersistentCodec.js'
import { createUnverifiedStateSource } from '../state/createUnverifiedStateSource.js'
import { createVerifiedStateSource } from '../state/createVerifiedStateSource.js'
import type { StateSource } from '../state/types.js'
import type { Upstream } from '../upstream/types.js'
import type { RangeWorkers } from '../types/rangeWorkers.js'
import { type VerificationCounts, newVerificationCounts } from '../types/verificationCounts.js'
import { type EngineKind, type WasmEngineState, createWasmEngineState, engineKind } from '../wasm/wasmEngineState.js'
import type { SourceRegistry } from '../sources/createSourceRegistry.js'
import type { SourceLookup } from '../sources/types.js'
import { createSourcifyLookup } from './createSourcifyLookup.js'
import { DEFAULT_TXPOOL_LIMITS, type TxPool, type TxPoolLimits, createTxPool } from './txpool/createTxPool.js'

export type EngineOptions = {
  /**
   * `--engine`: what runs the EVM's frames. 'ethereumjs': @ethereumjs/evm alone.
   * 'wasm' (the default): the WebAssembly interpreter (src/wasm) runs each frame's plain instructions and
   * @ethereumjs/evm everything else (calls, logs, storage writes, the environment), frame by frame;
   * traces observed step by step (struct logs, JavaScript tracers) too, the wasm handing back each
   * instruction it ran for its step to be reported.
   */
  engine?: EngineKind | undefined
  /** `--rpc.gascap`: the most gas one call may use; 0 = no cap. Default 50,000,000. */
  gasCap: bigint
  /**
   * `--rpc.gasestimate.errorratio`: eth_estimateGas stops its binary search once the window is within
   * this fraction of the answer (geth's 0.015). Default 0: the exact least gas, as the reference daemon.
   */
  estimateGasErrorRatio?: number | undefined
  /** `--rpc.evmtimeout` in ms. Default 5 minutes. */
  evmTimeoutMs: number
  /** `--rpc.returndata.limit`: the most bytes eth_call may return (Erigon: 100,000). */
  returnDataLimit: number
  /** `--unverified`: take state from plain getters, without proofs. */
  unverified: boolean
  /** Cache budget in bytes (default 256 MiB). */
  cacheBytes: number
  /**
   * `--trace.compat`: trace_* in OpenEthereum's shapes (error labels, no result on failed frames, no
   * vmTrace op/idx…) instead of the reference daemon's.
   */
  traceCompat?: boolean | undefined
  /** The most blocks one trace_filter request may cover (default 10,000). */
  traceFilterMaxBlocks?: number | undefined
  /** The most blocks one verified eth_getLogs request may cover (default 10,000). */
  getLogsMaxBlocks?: number | undefined
  /** `--rpc.overlay.getlogstimeout` in ms: one overlay_getLogs request as a whole (default 5 minutes). */
  overlayGetLogsTimeoutMs?: number | undefined
  /** `--rpc.overlay.replayblocktimeout` in ms: one block's replay in overlay_getLogs (default 10 s). */
  overlayReplayBlockTimeoutMs?: number | undefined
  /** The most blocks one ots_searchTransactions* request may scan without an index (default 10,000). */
  otsSearchMaxBlocks?: number | undefined
  /** Whether ots searches may ask the upstream's own index (ots_search*, trace_filter); default true. */
  otsSearchIndex?: boolean | undefined
  /** The transaction pool's limits (`--txpool.*`). */
  txpool?: TxPoolLimits | undefined
  /**
   * Bor chains: the most headers a validator snapshot walks back looking for a known one (a cached
   * snapshot, or the genesis) before it starts from the validator set a span's sprint-end header
   * names (default 16,384).
   */
  borSnapshotWalk?: number | undefined
  /**
   * Whether JavaScript tracers (debug_trace* with tracer code) are served. The Node server serves
   * them on loopback, and beyond it only with `--rpc.jstracers`; the browser worker always (the page
   * asked for them). Default true.
   */
  jsTracers?: boolean | undefined
  /**
   * The heap one JavaScript tracer's thread may use, MB (Node: its worker thread's old generation,
   * `--rpc.jstracers.memory`; default 512). A tracer past it ends with an error, its thread with it.
   */
  jsTracerMemoryMb?: number | undefined
  /**
   * Struct-log traces (debug_traceTransaction, debug_traceCall without a named tracer) run at most
   * this many at a time; the others wait in line within their own deadline (default: one per core).
   */
  traceConcurrency?: number | undefined
  /** How often subscriptions read the head when the upstream cannot announce it, ms (default 1000). */
  subscriptionPollMs?: number | undefined
  /** A filter (eth_newFilter …) not polled for this long is removed, ms (geth's default: 5 minutes). */
  filterTimeoutMs?: number | undefined
  /**
   * `--sources`: compiled contracts (solc standard JSON, Foundry, Hardhat) that the source-level
   * tracer (`edgetrace_sourceTracer`) matches to the code that runs, by runtime bytecode.
   */
  sources?: SourceRegistry | undefined
  /**
   * `--sourcify URL`: a Sourcify server whose APIv2 the source tracer asks for code no build output
   * matched (its answer matched against the verified code, kept by code hash). Off when undefined.
   */
  sourcify?: string | undefined
}

/** Everything an execution needs: the upstream, the chain's rules, verified headers and state. */
export type Engine = {
  readonly upstream: Upstream
  readonly rules: ChainRules
  readonly headers: HeaderStore
  readonly source: StateSource
  readonly cache: LruCache
  readonly options: EngineOptions
  /** The persistent tier under the cache (IndexedDB in the browser), when there is one. */
  readonly persistent: PersistentBacking | undefined
  /** The Sourcify lookup (`sourcify`), when there is one. */
  readonly sourceLookup: SourceLookup | undefined
  /** Whether the upstream answered eth_createAccessList (asked once; stops asking when it does not). */
  accessListSupported: boolean
  /**
   * What ots searches learned of the upstream's indexes: the ones it does not offer (ots_search,
   * trace_filter; not asked again), and the most blocks its trace_filter takes at once.
   */
  readonly searchIndex: { missing: Set<string>; traceFilterBlocks?: bigint }
  /** Items proven since start (see engineCounters). */
  readonly verified: VerificationCounts
  /** The local transaction pool (txpool namespace, eth_sendRawTransaction, the pending tag). */
  readonly txpool: TxPool
  /**
   * Other threads ranges are fanned out to (trace_filter, debug_getModifiedAccounts*, the ots
   * searches' block scans, the signers of Bor snapshot walks), when the host set them up (the Node
   * server: `--workers`); undefined runs everything here.
   */
  rangeWorkers?: RangeWorkers | undefined
  /**
   * Threads whose realm is hardened (SES lockdown), where requests with a JavaScript tracer run and
   * can be ended (see runJsTracerRequest); undefined when the host has none.
   */
  jsTracerWorkers?: RangeWorkers | undefined
  /** The host's log (a line per event worth an operator's attention), when it has one. */
  readonly log: ((line: string) => void) | undefined
  /** The wasm engine's state and counters when `engine: 'wasm'`. */
  readonly wasm: WasmEngineState | undefined
  /** What the pool learned from the upstream's own pool: when it was last read, what was dropped. */
  readonly upstreamPool: { readAt: number; headHash: string | undefined; dropped: number; offered: boolean }
}

/** A JavaScript tracer's thread's heap unless `--rpc.jstracers.memory` says otherwise, MB. */
export const DEFAULT_JS_TRACER_MEMORY_MB = 512

export const DEFAULT_ENGINE_OPTIONS: EngineOptions = {
  gasCap: 50_000_000n,
  evmTimeoutMs: 5 * 60_000,
  returnDataLimit: 100_000,
  unverified: false,
  cacheBytes: 256 * 1024 * 1024,
}

/** The EIP-2935 history contract: block n's hash at slot n % 8191 of every later block's state, 8,191 deep. */
const HISTORY_CONTRACT = '0x0000f90827f1c53a10cb7a02335b175320002935' as Hex
const HISTORY_WINDOW = 8191n

/**
 * Block n's hash as `head`'s state holds it in the history contract's ring (proven against head's
 * state root), or undefined when n is outside the ring or the slot is empty (before Prague, or no
 * such contract on the chain).
 */
async function historyHashAt(source: StateSource, head: VerifiedHeader, n: bigint): Promise<Hex | undefined> {
  if (n >= head.number || head.number - n > HISTORY_WINDOW) return undefined
  const slot = historySlot(n)
  // The account and its slot in one proof (one round trip), then read from what it proved.
  await source.prefetch(head, [{ address: HISTORY_CONTRACT, storageKeys: [slot] }])
  const value = await source.getStorage(head, HISTORY_CONTRACT, slot)
  return value.every((b) => b === 0) ? undefined : (bytesToHex(setLengthLeft(value, 32)) as Hex)
}

const historySlot = (n: bigint) => bigIntToHex32(`0x${(n % HISTORY_WINDOW).toString(16)}`)

/**
 * The history contract's proofs asked for ahead, by the block hash they are at: a hop's proof at the
 * block the previous hop named leaves with that block's header, and is taken once the header verifies
 * (offerProof checks it against the state root), so a hop costs one round trip.
 */
function createHistoryLookAhead(upstream: Upstream, source: StateSource) {
  const ahead = new Map<string, Promise<unknown>>()
  return {
    ask(hash: Hex, n: bigint) {
      if (ahead.size > 16) ahead.clear()
      const proof = upstream.request('eth_getProof', [HISTORY_CONTRACT, [historySlot(n)], { blockHash: hash }])
      proof.catch(() => {})
      ahead.set(hash, proof)
    },
    async hashAt(head: VerifiedHeader, n: bigint): Promise<Hex | undefined> {
      const asked = ahead.get(head.hash)
      ahead.delete(head.hash)
      const proof = asked && (await asked.catch(() => undefined))
      if (proof) await source.offerProof(head, proof)
      return historyHashAt(source, head, n)
    },
  }
}

export function createEngine({
  upstream,
  rules,
  options = {},
  persistentStore,
  checkpoint,
  anchor,
  log,
}: {
  upstream: Upstream
  rules: ChainRules
  options?: Partial<EngineOptions>
  /**
   * Verified items are also kept here, and read from here before the upstream is asked (not in
   * unverified mode: what was not proven is never persisted).
   */
  persistentStore?: PersistentStore | undefined
  /** `--checkpoint`: blocks asked by number or tag must link to this block hash (see createHeaderStore). */
  checkpoint?: string | undefined
  /** Consensus' word on which block is real (a beacon light client; see createHeaderStore). */
  anchor?: ExecutionAnchor | undefined
  log?: ((line: string) => void) | undefined
}): Engine {
  const opts = { ...DEFAULT_ENGINE_OPTIONS, ...options }
  const persistent =
    persistentStore && !opts.unverified
      ? createPersistentBacking({ store: persistentStore, codec: createPersistentCodec(rules) })
      : undefined
  const cache = createLruCache(opts.cacheBytes, persistent)
  const verified = newVerificationCounts()
  const source = opts.unverified
    ? createUnverifiedStateSource({ upstream, cache })
    : createVerifiedStateSource({ upstream, cache, counts: verified })
  const headers = createHeaderStore({
    upstream,
    rules,
    cache,
    checkpoint,
    anchor,
    log,
    // EIP-2935's ring of block hashes, read with a storage proof at a block: far ancestors in one step.
    ...(opts.unverified ? {} : { history: createHistoryLookAhead(upstream, source) }),
  })
  return {
    upstream,
    rules,
    headers,
    source,
    cache,
    options: opts,
    persistent,
    sourceLookup: opts.sourcify
      ? createSourcifyLookup({ url: opts.sourcify, chainId: rules.chainId, cache, log })
      : undefined,
    accessListSupported: true,
    searchIndex: { missing: new Set() },
    verified,
    txpool: createTxPool(opts.txpool ?? DEFAULT_TXPOOL_LIMITS),
    upstreamPool: { readAt: 0, headHash: undefined, dropped: 0, offered: true },
    log,
    wasm: engineKind(opts) === 'wasm' ? createWasmEngineState(log) : undefined,
  }
}
