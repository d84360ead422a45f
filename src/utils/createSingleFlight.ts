/**
 * Concurrent loads of one key share one promise (one upstream request), until it settles.
 */
export function createSingleFlight() {
  const inflight = new Map<string, Promise<unknown>>()
  return function once<value>(key: string, load: () => Promise<value>): Promise<value> {
    const pending = inflight.get(key)
    if (pending) return pending as Promise<value>
    const promise = load().finally(() => inflight.delete(key))
    inflight.set(key, promise)
    return promise
  }
}
