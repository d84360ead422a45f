/** Takes one of the slots, waiting in line for it; `release` gives it back (once). */
export type Semaphore = {
  acquire(signal?: AbortSignal): Promise<() => void>
  /** Slots taken and callers waiting, now. */
  readonly busy: number
  readonly waiting: number
}

/**
 * At most `slots` holders at a time; the others wait in arrival order. A waiter whose signal aborts
 * (its request's deadline) leaves the line with the signal's reason, holding nothing.
 */
export function createSemaphore(slots: number): Semaphore {
  let busy = 0
  const line: { grant: () => void }[] = []
  const releaser = () => {
    let released = false
    return () => {
      if (released) return
      released = true
      const next = line.shift()
      if (next) next.grant()
      else busy--
    }
  }
  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason)
      if (busy < slots && line.length === 0) {
        busy++
        return Promise.resolve(releaser())
      }
      return new Promise((resolve, reject) => {
        const waiter = {
          grant: () => {
            signal?.removeEventListener('abort', onAbort)
            resolve(releaser())
          },
        }
        const onAbort = () => {
          const at = line.indexOf(waiter)
          if (at >= 0) line.splice(at, 1)
          reject(signal!.reason)
        }
        signal?.addEventListener('abort', onAbort, { once: true })
        line.push(waiter)
      })
    },
    get busy() {
      return busy
    },
    get waiting() {
      return line.length
    },
  }
}
