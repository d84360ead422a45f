import type { Engine } from '../exec/createEngine.js'
import type { CallContext } from '../types/progress.js'
import { WorkerDeclinedError } from '../errors/execution.js'
import { JsonStream } from './jsonStream.js'
import { runOnWorker } from './runOnWorker.js'

const running = new WeakMap<Engine, { calls: number }>()

/**
 * A heavy call (a whole block traced) while this daemon is already running one: handed to a
 * worker's daemon instead (when one is started and free: a thread of this process, or, with the
 * fleet's work queue, a process taking from it), so concurrent block traces — a batch, several
 * clients — use every core (of the fleet). Its result comes back as the worker wrote it (one text, not
 * streamed as it is produced) and goes out as is. Otherwise (or when the worker gives it back) the
 * call runs here.
 */
export async function spreadHeavyCall(
  engine: Engine,
  method: string,
  params: unknown,
  context: CallContext,
  here: () => Promise<unknown>,
): Promise<unknown> {
  let count = running.get(engine)
  if (!count) running.set(engine, (count = { calls: 0 }))
  const workers = engine.rangeWorkers
  if (workers && workers.size > 0 && count.calls > 0) {
    if (workers.hasFree()) {
      const result = await runOnWorker(workers, method, params, context.deadline?.signal).catch((err: unknown) => {
        // Given back (too large to come back over the fleet's queue): run here below.
        if (err instanceof WorkerDeclinedError) return undefined
        throw err
      })
      if (result)
        return new JsonStream(async (write) => {
          await write(result.json)
          // A result that failed after content: the part, then its error (as the worker answered it).
          if (result.error) throw result.error
        })
    }
    // None started yet: this call runs here, and the next ones find the workers up.
    else workers.warmUp()
  }
  count.calls++
  try {
    const result = await here()
    // A streamed result is still being computed here while it is written out.
    if (result instanceof JsonStream) {
      const counted = count
      return new JsonStream((write, hold) => result.produce(write, hold).finally(() => counted.calls--))
    }
    count.calls--
    return result
  } catch (err) {
    count.calls--
    throw err
  }
}
