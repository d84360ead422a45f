/**
 * At most `maxInFlight` requests at once; the others wait their turn. A waiter whose attempt is
 * abandoned (its signal fires) leaves the line at once and is skipped when a slot frees, so calls
 * that already failed never take a slot.
 */
export function createSlotLimiter({
  maxInFlight,
  onIdleStart,
}: {
  maxInFlight: number
  /** Told when a slot is taken while none was: a new sequential round trip starts. */
  onIdleStart: () => void
}) {
  let inFlight = 0
  const waiting: { wake: () => void; active: boolean }[] = []

  /** Waits for a slot; false when the attempt was abandoned meanwhile (no slot taken). */
  async function acquire(signal: AbortSignal): Promise<boolean> {
    while (inFlight >= maxInFlight) {
      if (signal.aborted) return false
      await new Promise<void>((resolve) => {
        const waiter = {
          active: true,
          wake: () => {
            waiter.active = false
            signal.removeEventListener('abort', waiter.wake)
            resolve()
          },
        }
        waiting.push(waiter)
        signal.addEventListener('abort', waiter.wake, { once: true })
      })
    }
    if (signal.aborted) return false
    if (inFlight === 0) onIdleStart()
    inFlight++
    return true
  }

  function release(): void {
    inFlight--
    for (let w = waiting.shift(); w; w = waiting.shift()) {
      if (!w.active) continue
      w.wake()
      break
    }
  }

  return { acquire, release }
}
