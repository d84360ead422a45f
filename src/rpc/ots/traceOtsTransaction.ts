import type { Engine } from '../../exec/createEngine.js'
import { runTrace } from '../../exec/runTrace.js'
import { TransactionNotFoundError } from '../../errors/replay.js'
import { ServerRpcError } from '../../errors/rpc.js'
import type { CallTraceArena } from '../../tracing/recorder/types.js'
import { startTxTrace } from '../../tracing/startTxTrace.js'
import type { TracePlan } from '../../tracing/tracePlan.js'
import type { NativeTracer } from '../../tracing/tracers/types.js'
import type { CallContext } from '../../types/progress.js'

/**
 * A mined transaction replayed on verified state (its block's earlier transactions first, each
 * checked against its receipt) with the one recorder, its arena handed to an ots renderer. A
 * transaction the upstream does not know is the reference's `transaction 0x… not found` (-32000).
 */
export async function traceOtsTransaction<result>(
  engine: Engine,
  hash: string,
  render: (arena: CallTraceArena) => result,
  context: CallContext,
): Promise<result> {
  // Not a tracer of debug_trace*'s directory: only the ots methods render with it.
  const tracer: NativeTracer<undefined> = {
    name: 'ots',
    parseConfig: () => undefined,
    needs: () => ({ logs: false, steps: false, state: false }),
    render: (run) => render(run.arena),
  }
  const plan: TracePlan = {
    kind: 'native',
    tracer: tracer as NativeTracer,
    config: undefined,
    timeoutMs: engine.options.evmTimeoutMs,
  }
  let value: result | undefined
  try {
    await runTrace(
      engine,
      { kind: 'transaction', hash },
      {
        start: (at) => startTxTrace(plan, at.context),
        done: (_at, out) => {
          value = out as result
        },
      },
      { deadline: context.deadline },
    )
  } catch (err) {
    if (err instanceof TransactionNotFoundError) throw new ServerRpcError(`transaction ${hash} not found`)
    throw err
  }
  return value as result
}
