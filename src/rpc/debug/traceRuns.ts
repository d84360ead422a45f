import type { Engine } from '../../exec/createEngine.js'
import { type RunTraceOptions, type TraceTarget, runTrace } from '../../exec/runTrace.js'
import type { TracePlan } from '../../tracing/tracePlan.js'
import { startTxTrace } from '../../tracing/startTxTrace.js'
import { type Semaphore, createSemaphore } from '../../utils/createSemaphore.js'
import { JsonStream } from '../jsonStream.js'
import { runWithJsState } from './runWithJsState.js'
import { withSources } from './withSources.js'

/**
 * The result of tracing one execution (a mined transaction, a call) with a geth plan: a named
 * tracer's rendered value, or — for the struct logger — a stream that runs it while its steps are
 * written out. `wording` turns a domain error into the method's own (geth's "tracing failed: …").
 */
export async function traceOne(
  engine: Engine,
  plan: TracePlan,
  target: TraceTarget,
  options: RunTraceOptions,
  wording: (err: unknown) => unknown = (err) => err,
): Promise<unknown> {
  plan = withSources(engine, plan)
  if (plan.kind !== 'structLogger') {
    let value: unknown
    const done = (_at: unknown, result: unknown) => {
      value = result
    }
    await runWithJsState(engine, plan, () =>
      runTrace(engine, target, { start: (at) => startTxTrace(plan, at.context), done }, options),
    ).catch((err: unknown) => {
      throw wording(err)
    })
    return value
  }
  return new JsonStream(async (write) => {
    // In line for a slot first, within the request's deadline: nothing is written while it waits.
    const release = await structLogSlots(engine).acquire(options.deadline?.signal)
    try {
      await runTrace(
        engine,
        target,
        { start: (at) => startTxTrace(plan, at.context, write), done: () => {} },
        options,
      ).catch((err: unknown) => {
        throw wording(err)
      })
    } finally {
      release()
    }
  })
}

const slots = new WeakMap<Engine, Semaphore>()

/**
 * The struct logger's slots: as geth traces with a thread per core, at most one struct-log trace per
 * core runs at a time (`traceConcurrency`), so 50 at once finish one after another within their
 * deadlines instead of all sharing the CPU past them, and their buffers are not all held at once.
 */
function structLogSlots(engine: Engine): Semaphore {
  let semaphore = slots.get(engine)
  if (!semaphore) {
    const cores = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency
    semaphore = createSemaphore(Math.max(1, engine.options.traceConcurrency ?? cores ?? 4))
    slots.set(engine, semaphore)
  }
  return semaphore
}
