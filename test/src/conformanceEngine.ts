// The engine the conformance corpora run on, from one place: `npm run conformance -- --engine wasm`
// (scripts/conformance.ts) sets EDGETRACE_CONFORMANCE_ENGINE for the test processes; unset (plain
// `npm test`, a single file) is the product's default engine, wasm; CI (.ci/run) runs the other one. Every conformance file takes its servers' engine options
// from engineOptions() and the EVMs it runs itself (runTracetestCase) from conformanceWasmState(),
// and reports what the wasm interpreter ran with useWasmCounters (test/src/useWasmCounters.ts).
// No vitest here: the legacy tracers' worker thread imports it too.
import type { EngineOptions } from '../../src/exec/createEngine.js'
import { loadWasmEvmModule } from '../../src/node/loadWasmEvmModule.js'
import type { WasmEngineCounters } from '../../src/wasm/createWasmEngine.js'
import {
  DEFAULT_ENGINE,
  type EngineKind,
  type WasmEngineState,
  createWasmEngineState,
  provideWasmEvmModule,
} from '../../src/wasm/wasmEngineState.js'

export const CONFORMANCE_ENGINE_ENV = 'EDGETRACE_CONFORMANCE_ENGINE'
export const CONFORMANCE_COUNTERS_ENV = 'EDGETRACE_CONFORMANCE_COUNTERS'

/** The engine the corpora run on: EDGETRACE_CONFORMANCE_ENGINE, else the product's default (wasm). */
export function conformanceEngine(): EngineKind {
  const named = process.env[CONFORMANCE_ENGINE_ENV]
  if (named === undefined || named === '') return DEFAULT_ENGINE
  if (named !== 'wasm' && named !== 'ethereumjs')
    throw new Error(`${CONFORMANCE_ENGINE_ENV}=${named}: wasm or ethereumjs`)
  return named
}

/** A server's engine options (startEdgetrace's `engine`) on the conformance engine. */
export function engineOptions(options: Partial<EngineOptions> = {}): Partial<EngineOptions> {
  return { ...options, engine: conformanceEngine() }
}

let directState: WasmEngineState | undefined

/**
 * The wasm engine's state for EVMs a test runs itself (runTracetestCase), one per process; undefined
 * on ethereumjs.
 */
export function conformanceWasmState(): WasmEngineState | undefined {
  if (conformanceEngine() !== 'wasm') return undefined
  if (directState === undefined) {
    provideWasmEvmModule(loadWasmEvmModule)
    directState = createWasmEngineState((line) => {
      throw new Error(line)
    })
  }
  return directState
}

/** The sum of some counters (a file's servers', a worker's). */
export function addWasmCounters(into: WasmEngineCounters, from: WasmEngineCounters): void {
  into.frames += from.frames
  into.steppedFrames += from.steppedFrames
  into.directSteps += from.directSteps
  into.hostSteps += from.hostSteps
  into.hostSloads += from.hostSloads
  for (const [reason, n] of Object.entries(from.fallbacks))
    into.fallbacks[reason as keyof WasmEngineCounters['fallbacks']] += n
}
