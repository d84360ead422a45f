import type { Deadline } from '../utils/createDeadline.js'
import type { JsonRpcId } from './types.js'

/** What a method reports while it works: `done` of `total` units. */
export type ProgressUpdate = {
  done: number
  total: number
  unit: 'blocks' | 'transactions'
  /** A one-line summary for logs, e.g. "trace_filter 2…40: 10 of 39 blocks traced, 31 traces sent". */
  message?: string
}

/** A progress report as transports deliver it: the update with the request it belongs to. */
export type ProgressEvent = ProgressUpdate & {
  /** The JSON-RPC id of the request (undefined for a notification). */
  id: JsonRpcId | undefined
  method: string
  /** Milliseconds since the request started. */
  elapsedMs: number
}

export type ProgressSink = (event: ProgressEvent) => void

/** What a method receives besides its params. */
export type CallContext = {
  /**
   * Reports progress of long work (a block traced, a range filtered); a no-op when nobody listens.
   * Progress also moves the request's deadline on: long work is bounded per unit, not as a whole.
   */
  progress(update: ProgressUpdate): void
  /**
   * The request's deadline (`--rpc.evmtimeout` from its start), for a method that runs several
   * executions under one budget; absent when the method is called outside the JSON-RPC core.
   */
  readonly deadline?: Deadline | undefined
}

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
