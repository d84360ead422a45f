// A worker thread of the JavaScript-tracer pool (see createRangeWorkers with `harden`): the range
// worker's daemon in a realm hardened before any other module runs. Range threads stay unhardened:
// a locked-down realm runs the daemon's own work several times slower (measured in bench/workers.ts).
import '../../tracing/js/hardenRealm.js'
import { JS_TRACER_RESULT_MAX_CHARS, jsTracerResultTooLarge } from '../../tracing/js/jsTracerResultLimit.js'
import run, { type RangeTask, type RangeTaskResult } from './rangeWorker.js'

/**
 * A task as the range worker runs it, then two checks before its answer leaves the thread: the
 * answer is not over JS_TRACER_RESULT_MAX_CHARS (else an error goes instead), and the thread went
 * idle — a tracer that left an endless chain of promise jobs never lets it, so the task never ends
 * and its thread is ended at the tracer's timeout, before it could take another request.
 */
export default async function runTracerTask(task: RangeTask | null): Promise<RangeTaskResult> {
  const result = await run(task)
  await new Promise<void>((resolve) => setImmediate(resolve))
  if (task === null || result.text.length <= JS_TRACER_RESULT_MAX_CHARS) return result
  const id = (JSON.parse(task.text) as { id?: unknown }).id ?? null
  const error = { code: -32000, message: jsTracerResultTooLarge(result.text.length) }
  return { thread: result.thread, text: JSON.stringify({ jsonrpc: '2.0', id, error }) }
}
