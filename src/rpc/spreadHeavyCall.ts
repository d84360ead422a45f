import type { Engine } from '../exec/createEngine.js'
import type { CallContext } from '../types/progress.js'
import { JsonStream } from './jsonStream.js'
import { runOnWorker } from './runOnWorker.js'

const running = new WeakMap<Engine, { calls: number }>()

/**
 * A heavy call (a whole block traced) while this daemon is already running one: handed to a
 * worker's daemon instead (when one is started and free), so concurrent block traces — a batch,
 * several clients — use every core. Its result comes back as the worker wrote it (one text, not streamed as
 * it is produced) and goes out as is. Otherwise the call runs here.
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
      const result = await runOnWorker(workers, method, params, context.deadline?.signal)
      return new JsonStream(async (write) => {
        await write(result.json)
        // A result that failed after content: the part, then its error (as the worker answered it).
        if (result.error) throw result.error
      })
    }
    // None started yet: this call runs here, and the next ones find the workers up.
    workers.warmUp()
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
