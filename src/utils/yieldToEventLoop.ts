/**
 * Cooperative sharing of the one JavaScript thread. An EVM run is a long chain of promise
 * continuations: it never lets the event loop take new I/O until it ends, so one endless loop would
 * stall every client. Long work asks `shouldYield()` now and then and, when it says so, awaits
 * `yieldToEventLoop()`: the event loop then takes I/O and timers before any computation resumes.
 *
 * The time slice is shared by every computation of the process: all of them wait on one gate, and
 * after the gate opens they share one slice — so I/O gets its turn every SLICE_MS however many
 * computations run (50 heavy traces do not make a request wait 50 slices).
 */
const SLICE_MS = 10

const now: () => number = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now()

/** A macrotask that runs after pending I/O: setImmediate in Node, a MessageChannel message in browsers. */
const macrotask: (fn: () => void) => void = (() => {
  if (typeof setImmediate === 'function') return (fn: () => void) => void setImmediate(fn)
  if (typeof MessageChannel === 'function') {
    const channel = new MessageChannel()
    const queue: (() => void)[] = []
    channel.port1.onmessage = () => queue.shift()?.()
    return (fn: () => void) => {
      queue.push(fn)
      channel.port2.postMessage(0)
    }
  }
  return (fn: () => void) => void setTimeout(fn, 0)
})()

let sliceStart = now()
let gate: Promise<void> | undefined

/** Whether the current slice is used up. */
export function shouldYield(): boolean {
  return now() - sliceStart >= SLICE_MS
}

/** Lets the event loop run (I/O, timers), then waits until this computation's turn in a fresh slice. */
export async function yieldToEventLoop(): Promise<void> {
  do {
    gate ??= new Promise<void>((resolve) =>
      macrotask(() => {
        gate = undefined
        sliceStart = now()
        resolve()
      }),
    )
    await gate
  } while (shouldYield())
}
