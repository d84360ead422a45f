import type { Deadline } from '../types/deadline.js'
import type { JsonRpcId } from '../types/jsonRpc.js'
import type { CallContext, ProgressEvent, ProgressSink } from '../types/progress.js'

export const SILENT_CONTEXT: CallContext = { progress: () => {} }

/** A context whose progress also extends `deadline` by `extendMs`. */
export function withDeadline(context: CallContext, deadline: Deadline, extendMs: number): CallContext {
  return {
    progress(update) {
      deadline.extend(extendMs)
      context.progress(update)
    },
    deadline,
  }
}

/**
 * A per-request progress reporter for `sinks`: at most one event every `everyMs` per request, and
 * always the first and the last (done === total), so a progress bar starts and finishes.
 */
export function createCallContext(
  sinks: readonly (ProgressSink | undefined)[],
  request: { id: JsonRpcId | undefined; method: string },
  everyMs: number,
): CallContext {
  const active = sinks.filter((s): s is ProgressSink => s !== undefined)
  if (active.length === 0) return SILENT_CONTEXT
  const started = Date.now()
  let last = -Infinity
  return {
    progress(update) {
      const now = Date.now()
      const final = update.done >= update.total
      if (!final && now - last < everyMs) return
      last = now
      const event: ProgressEvent = { ...update, id: request.id, method: request.method, elapsedMs: now - started }
      for (const sink of active) {
        try {
          sink(event)
        } catch {
          // A listener's failure is not the request's.
        }
      }
    },
  }
}
