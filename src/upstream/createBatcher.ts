import type { Call } from './settleCall.js'

const defer: (fn: () => void) => void =
  typeof setImmediate === 'function' ? (fn) => setImmediate(fn) : (fn) => setTimeout(fn, 0)

/**
 * Gathers the calls asked in the same tick (the same synchronous run and the promise continuations
 * it settles — flushed on setImmediate) and sends them as batches of at most `maxBatchSize`, or one
 * by one while `singly()` says so (the upstream refused a batch) or when there is a single call.
 */
export function createBatcher({
  maxBatchSize,
  singly,
  send,
}: {
  maxBatchSize: number
  singly: () => boolean
  send: (calls: Call[], asBatch: boolean) => Promise<void>
}) {
  let queue: Call[] = []
  let scheduled = false

  function flush() {
    scheduled = false
    // Calls settled while queued (their time limit passed) are not sent.
    const calls = queue.filter((c) => !c.settled)
    queue = []
    if (calls.length === 0) return
    if (singly() || calls.length === 1) {
      for (const call of calls) void send([call], false)
      return
    }
    for (let i = 0; i < calls.length; i += maxBatchSize) void send(calls.slice(i, i + maxBatchSize), true)
  }

  return {
    enqueue(call: Call): void {
      queue.push(call)
      if (!scheduled) {
        scheduled = true
        defer(flush)
      }
    },
  }
}
