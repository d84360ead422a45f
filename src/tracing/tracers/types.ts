import type { CallTraceArena } from '../recorder/types.js'
import type { StateAccess } from '../state/collectStateAccess.js'
import type { FlatTraceContext } from '../render/toFlatTraces.js'
import type { SourceRegistry } from '../../sources/createSourceRegistry.js'
import type { SourceLookup } from '../../sources/types.js'

/** What a tracer needs recorded: call frames always; logs, steps and the state seen on demand. */
export type TracerNeeds = {
  logs: boolean
  steps: boolean
  state: boolean
  /** With steps: KECCAK256's inputs and hashes (storage slots named by the keys hashed). */
  preimages?: boolean | undefined
}

/** Everything one traced transaction left, for renderers. */
export type TraceRun = {
  arena: CallTraceArena
  /** Present when a tracer asked for `state`. */
  access: StateAccess | undefined
  context: FlatTraceContext
  /** The build outputs the engine was given, for source-level tracers. */
  sources?: SourceRegistry | undefined
  /** Where source-level tracers look up code none of `sources` matches (Sourcify), when anywhere. */
  sourceLookup?: SourceLookup | undefined
}

/** A named tracer (geth's directory entry): parse its config, say what to record, render. */
export type NativeTracer<config = unknown> = {
  name: string
  parseConfig(raw: Record<string, unknown>): config
  needs(config: config): TracerNeeds
  /** The result, or a promise of it (a source-level tracer that looks sources up first). */
  render(run: TraceRun, config: config): unknown
  /**
   * Renders with what only the daemon that was given it holds (the engine's `sources`): a request
   * with it is not handed to a worker's daemon. muxTracer: when any child is.
   */
  local?(config: config): boolean
}

/** A typed reader of a tracerConfig object, with errors naming the option. */
export function configReader(tracer: string, raw: Record<string, unknown>) {
  const fail = (key: string, what: string) => new Error(`invalid tracerConfig for ${tracer}: ${key} must be ${what}`)
  return {
    bool(key: string, fallback = false): boolean {
      const v = raw[key]
      if (v === undefined || v === null) return fallback
      if (typeof v !== 'boolean') throw fail(key, 'a boolean')
      return v
    },
  }
}
