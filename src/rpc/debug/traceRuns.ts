import type { RunTxResult } from '@ethereumjs/vm'
import type { OverlayStateManager } from '../../state/createOverlayStateManager.js'
import type { TracePlan } from '../../tracing/tracePlan.js'
import type { FlatTraceContext } from '../../tracing/render/geth/toFlatCallFrames.js'
import { type TxTraceSession, startTxTrace } from '../../tracing/startTxTrace.js'
import { JsonStream } from '../jsonStream.js'

/** Runs one transaction with a session's hooks; resolves with its result and the state after it. */
export type TracedRun = (session: TxTraceSession) => Promise<{ result: RunTxResult; state: OverlayStateManager }>

/**
 * The result of tracing one transaction: a named tracer's rendered value, or — for the struct
 * logger — a stream that runs the transaction while its steps are written out.
 */
export async function traceOne(plan: TracePlan, context: FlatTraceContext, run: TracedRun): Promise<unknown> {
  if (plan.kind === 'native') {
    const session = startTxTrace(plan, context)
    const { result, state } = await run(session)
    return session.finish(result, state)
  }
  return new JsonStream(async (write) => {
    const session = startTxTrace(plan, context, write)
    try {
      const { result, state } = await run(session)
      await session.finish(result, state)
    } catch (err) {
      await session.abort()
      throw err
    }
  })
}

