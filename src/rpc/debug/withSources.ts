import type { Engine } from '../../exec/createEngine.js'
import type { TracePlan } from '../../tracing/tracePlan.js'

/** A native tracer's plan with the engine's known contracts, for source-level rendering (`--sources`) and the Sourcify lookup (`--sourcify`). */
export function withSources(engine: Engine, plan: TracePlan): TracePlan {
  if (plan.kind !== 'native' || (!engine.options.sources && !engine.sourceLookup)) return plan
  return { ...plan, sources: engine.options.sources, sourceLookup: engine.sourceLookup }
}
