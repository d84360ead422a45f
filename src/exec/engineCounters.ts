import type { Engine } from './createEngine.js'

/**
 * The engine's running totals since start: what it proved, what its cache answered, what it asked
 * the upstream. The difference of two snapshots is what the work between them cost — the explorer
 * shows it for each answer (exact when nothing else ran meanwhile).
 */
export type EngineCounters = {
  /** False in --unverified mode: nothing is proven. */
  verified: boolean
  accountProofs: number
  storageProofs: number
  codes: number
  cacheHits: number
  cacheMisses: number
  upstreamRequests: number
  upstreamCalls: number
  upstreamRoundTrips: number
  /** `--engine wasm`: frames run by the wasm interpreter, their instructions run by ethereumjs, frames ethereumjs ran alone. */
  wasmFrames: number
  wasmHostSteps: number
  wasmFallbacks: number
}

export function engineCounters(engine: Engine): EngineCounters {
  const cache = engine.cache.stats()
  const upstream = engine.upstream.stats()
  const wasm = engine.wasm?.counters
  return {
    verified: !engine.options.unverified,
    accountProofs: engine.verified.accountProofs,
    storageProofs: engine.verified.storageProofs,
    codes: engine.verified.codes,
    cacheHits: cache.hits,
    cacheMisses: cache.misses,
    upstreamRequests: upstream.requests,
    upstreamCalls: upstream.calls,
    upstreamRoundTrips: upstream.roundTrips,
    wasmFrames: wasm?.frames ?? 0,
    wasmHostSteps: wasm?.hostSteps ?? 0,
    wasmFallbacks: wasm ? Object.values(wasm.fallbacks).reduce((a, b) => a + b, 0) : 0,
  }
}
