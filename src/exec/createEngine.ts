import type { ChainRules } from '../chain/createChainRules.js'
import { type HeaderStore, createHeaderStore } from '../chain/createHeaderStore.js'
import { type LruCache, createLruCache } from '../state/createLruCache.js'
import { createUnverifiedStateSource } from '../state/createUnverifiedStateSource.js'
import { createVerifiedStateSource } from '../state/createVerifiedStateSource.js'
import type { StateSource } from '../state/types.js'
import type { Upstream } from '../upstream/types.js'

export type EngineOptions = {
  /** `--rpc.gascap`: the most gas one call may use; 0 = no cap. Default 50,000,000. */
  gasCap: bigint
  /** `--rpc.evmtimeout` in ms. Default 5 minutes. */
  evmTimeoutMs: number
  /** `--rpc.returndata.limit`: the most bytes eth_call may return (Erigon: 100,000). */
  returnDataLimit: number
  /** `--unverified`: take state from plain getters, without proofs. */
  unverified: boolean
  /** Cache budget in bytes (default 256 MiB). */
  cacheBytes: number
  /** Where long-running work (a trace_filter over many blocks) reports its progress; none by default. */
  progress?: ((line: string) => void) | undefined
  /** The most blocks one trace_filter request may cover (default 10,000). */
  traceFilterMaxBlocks?: number | undefined
  /** How often progress is reported, in ms (default 5 s). */
  progressEveryMs?: number | undefined
}

/** Everything an execution needs: the upstream, the chain's rules, verified headers and state. */
export type Engine = {
  readonly upstream: Upstream
  readonly rules: ChainRules
  readonly headers: HeaderStore
  readonly source: StateSource
  readonly cache: LruCache
  readonly options: EngineOptions
  /** Whether the upstream answered eth_createAccessList (asked once; stops asking when it does not). */
  accessListSupported: boolean
}

export const DEFAULT_ENGINE_OPTIONS: EngineOptions = {
  gasCap: 50_000_000n,
  evmTimeoutMs: 5 * 60_000,
  returnDataLimit: 100_000,
  unverified: false,
  cacheBytes: 256 * 1024 * 1024,
}

export function createEngine({
  upstream,
  rules,
  options = {},
}: {
  upstream: Upstream
  rules: ChainRules
  options?: Partial<EngineOptions>
}): Engine {
  const opts = { ...DEFAULT_ENGINE_OPTIONS, ...options }
  const cache = createLruCache(opts.cacheBytes)
  const headers = createHeaderStore({ upstream, rules, cache })
  const source = opts.unverified
    ? createUnverifiedStateSource({ upstream, cache })
    : createVerifiedStateSource({ upstream, cache })
  return { upstream, rules, headers, source, cache, options: opts, accessListSupported: true }
}
