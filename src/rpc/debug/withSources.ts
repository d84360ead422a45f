import type { Engine } from '../../exec/createEngine.js'
import type { TracePlan } from '../../tracing/tracePlan.js'

/** A native tracer's plan with the engine's known contracts, for source-level rendering (`--sources`). */
export function withSources(engine: Engine, plan: TracePlan): TracePlan {
  return plan.kind === 'native' && engine.options.sources ? { ...plan, sources: engine.options.sources } : plan
}
