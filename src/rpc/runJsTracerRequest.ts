import { DEFAULT_JS_TRACER_MEMORY_MB, type Engine } from '../exec/createEngine.js'
import { TracerTimeoutError } from '../errors/execution.js'
import { ServerRpcError } from '../errors/rpc.js'
import type { TracePlan } from '../tracing/tracePlan.js'
import type { CallContext } from '../types/progress.js'
import { JsonStream } from './jsonStream.js'
import { runOnWorker } from './runOnWorker.js'

/**
 * A time past a JavaScript tracer's own timeout before its thread is ended. A tracer that returns to
 * the interpreter meets its timeout there within a step and answers at once; only one stuck in its
 * own code (an endless loop in `step`) waits out this grace, spinning its thread, so it is short.
 */
const GRACE_MS = 250

/** Whether this thread's realm is hardened for JavaScript tracers (hardenRealm ran here). */
export const realmIsHardened = () =>
  typeof (globalThis as { Compartment?: unknown }).Compartment === 'function' && Object.isFrozen(Object.prototype)

/** The JavaScript tracer plan among a method's parsed arguments, if any. */
export function jsTracerPlan(args: readonly unknown[]): Extract<TracePlan, { kind: 'js' }> | undefined {
  for (const arg of args) {
    const plan = arg as { kind?: unknown; source?: unknown } | undefined
    if (plan && typeof plan === 'object' && plan.kind === 'js' && typeof plan.source === 'string')
      return plan as Extract<TracePlan, { kind: 'js' }>
  }
  return undefined
}

/**
 * A request with a JavaScript tracer runs where such code may run: here in a hardened thread (a
 * worker's daemon), otherwise whole on a worker thread, which is ended if the request outlives the
 * tracer's timeout (an endless loop in `step` cannot be interrupted otherwise) or its deadline — the
 * answer is then geth's `execution timeout`, and a fresh thread takes the next request. Refused
 * where they are off: on the engine (`jsTracers: false`), or on the listener the call came on
 * (`allowed: false`: it listens beyond loopback without `--rpc.jstracers`).
 */
export async function runJsTracerRequest(
  engine: Engine,
  method: string,
  params: unknown,
  plan: Extract<TracePlan, { kind: 'js' }>,
  context: CallContext,
  here: () => Promise<unknown>,
  { allowed = true }: { allowed?: boolean } = {},
): Promise<unknown> {
  if (engine.options.jsTracers === false || !allowed)
    throw new ServerRpcError(
      'JavaScript tracers are off on this listener: it listens beyond loopback (start it with --rpc.jstracers to serve them)',
    )
  if (realmIsHardened()) return here()
  const workers = engine.jsTracerWorkers
  if (!workers || workers.size === 0)
    throw new ServerRpcError(
      'JavaScript tracers run on worker threads (Web Workers in the browser), and this daemon cannot start any here',
    )
  // The tracer's clock starts with the request: the wait for a free thread and the run count against
  // its timeout, so an endless tracer answers within timeout + GRACE_MS of its thread being up, and a
  // request queued behind another's tracer waits no longer than its own timeout. A thread started for
  // the request (the first, or the one replacing a thread an endless tracer ended) does not count:
  // its start takes seconds on a loaded machine, as geth's timeout never counts its own start-up; the
  // clock stops while it starts and restarts once it is up (as the pool says: the browser's Web
  // Workers, Node's threads), the request's deadline bounding that wait. A method of several
  // transactions (a block, debug_traceCallMany) gives each its timeout: the clock restarts as the
  // thread reports each transaction's start (where it can).
  const single = method === 'debug_traceCall' || method === 'debug_traceTransaction'
  const perTx = !single && workers.reportsTxStart === true
  const timeout = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  const arm = () => {
    clearTimeout(timer)
    timer = setTimeout(() => timeout.abort(new TracerTimeoutError()), plan.timeoutMs + GRACE_MS)
  }
  if (single || perTx) arm()
  // The request's deadline, and its client: one that went away (or was cancelled) ends its thread.
  const signals = [timeout.signal, context.deadline?.signal, context.signal].filter(
    (s): s is AbortSignal => s !== undefined,
  )
  try {
    const onColdStart = (phase: 'starting' | 'ready') => {
      if (phase === 'starting') clearTimeout(timer)
      else if (single || perTx) arm()
    }
    const result = await runOnWorker(
      workers,
      method,
      params,
      AbortSignal.any(signals),
      perTx ? arm : undefined,
      onColdStart,
    )
    return new JsonStream(async (write) => {
      await write(result.json)
      // A result that failed after content: the part, then its error (as the worker answered it).
      if (result.error) throw result.error
    })
  } catch (err) {
    if (timeout.signal.aborted) throw new TracerTimeoutError()
    if ((err as { code?: unknown } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY')
      throw new ServerRpcError(
        `JavaScript tracer ran out of memory: its thread's heap is limited to ${engine.options.jsTracerMemoryMb ?? DEFAULT_JS_TRACER_MEMORY_MB} MB (--rpc.jstracers.memory)`,
      )
    throw err
  } finally {
    clearTimeout(timer)
  }
}
