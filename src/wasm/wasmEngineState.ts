import {
  type CompiledWasmModule,
  type WasmEngine,
  type WasmEngineCounters,
  createWasmEngine,
  newWasmEngineCounters,
} from './createWasmEngine.js'

export type EngineKind = 'wasm' | 'ethereumjs'

/**
 * The engine when none is named (`--engine`, `engine.engine`): the wasm interpreter, since every
 * recorded corpus passes on it (npm run conformance -- --engine wasm) and it runs the EVM's plain
 * instructions 15-20× faster. Where its module cannot be had, ethereumjs runs everything (said once).
 */
export const DEFAULT_ENGINE: EngineKind = 'wasm'

/** The engine these options name, else the default. */
export function engineKind(options: { engine?: EngineKind | undefined } | undefined): EngineKind {
  return options?.engine ?? DEFAULT_ENGINE
}

let provider: (() => Promise<CompiledWasmModule>) | undefined
let shared: Promise<WasmEngine | Error> | undefined

/**
 * Names where this process gets the wasm EVM's compiled module (Node: src/node/loadWasmEvmModule.ts,
 * given by startEdgetrace, the library and the range workers; the browser: src/browser/fetchWasmEvmModule.ts). A host that gives none
 * runs every engine on ethereumjs.
 */
export function provideWasmEvmModule(load: () => Promise<CompiledWasmModule>): void {
  provider ??= load
}

/** The process's wasm engine (one module, one pool of instances), or why there is none. */
function sharedWasmEngine(): Promise<WasmEngine | Error> {
  if (provider === undefined) return Promise.resolve(new Error('this host provides no wasm EVM module'))
  shared ??= provider().then(createWasmEngine, (err: unknown) => (err instanceof Error ? err : new Error(String(err))))
  return shared
}

/** An engine's use of the wasm EVM (`engine: 'wasm'`): its counters, and the engine once loaded. */
export type WasmEngineState = {
  readonly counters: WasmEngineCounters
  /** The wasm engine, or undefined when it could not be loaded (said once in the log; ethereumjs runs everything). */
  engine(): Promise<WasmEngine | undefined>
}

export function createWasmEngineState(log: ((line: string) => void) | undefined): WasmEngineState {
  const counters = newWasmEngineCounters()
  let said = false
  return {
    counters,
    async engine() {
      const engine = await sharedWasmEngine()
      if (!(engine instanceof Error)) return engine
      if (!said) {
        said = true
        ;(log ?? console.warn)(`engine: wasm unavailable (${engine.message.split('\n')[0]}), running on ethereumjs`)
      }
      return undefined
    },
  }
}
