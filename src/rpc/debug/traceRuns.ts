import type { Engine } from '../../exec/createEngine.js'
import { type RunTraceOptions, type TraceTarget, runTrace } from '../../exec/runTrace.js'
import type { TracePlan } from '../../tracing/tracePlan.js'
import { startTxTrace } from '../../tracing/startTxTrace.js'
import { JsonStream } from '../jsonStream.js'
import { runWithJsState } from './runWithJsState.js'

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
    await runTrace(
      engine,
      target,
      { start: (at) => startTxTrace(plan, at.context, write), done: () => {} },
      options,
    ).catch((err: unknown) => {
      throw wording(err)
    })
  })
}
