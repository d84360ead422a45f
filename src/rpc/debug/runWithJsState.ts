import type { Engine } from '../../exec/createEngine.js'
import type { TraceRun } from '../../exec/runTrace.js'
import type { TracePlan } from '../../tracing/tracePlan.js'

/** Rounds a JavaScript tracer's trace may take to load what its db reads (a db that reads anew every round gives up). */
const MAX_ROUNDS = 4

/**
 * Runs a trace; for a JavaScript tracer whose `db` read state the execution had not loaded (it
 * must answer synchronously, geth's StateDB does), fetches that state — verified, at the block the
 * execution starts from — and runs the trace again, until a run needs nothing more.
 */
export async function runWithJsState(engine: Engine, plan: TracePlan, run: () => Promise<TraceRun>): Promise<TraceRun> {
  for (let round = 1; ; round++) {
    if (plan.kind === 'js') plan.misses.length = 0
    const ran = await run()
    if (plan.kind !== 'js' || plan.misses.length === 0 || round === MAX_ROUNDS) return ran
    const base = ran.loaded?.parent ?? ran.header
    const slots = new Map<string, Set<string>>()
    for (const miss of plan.misses) {
      const set = slots.get(miss.address) ?? new Set<string>()
      if (miss.slot) set.add(miss.slot)
      slots.set(miss.address, set)
    }
    await engine.source.prefetch(
      base,
      [...slots].map(([address, keys]) => ({
        address: address as `0x${string}`,
        storageKeys: [...keys] as `0x${string}`[],
      })),
    )
  }
}
