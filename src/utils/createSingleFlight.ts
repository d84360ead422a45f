export type SingleFlightOptions = {
  /**
   * A shared load that failed this way is not the joiners' failure: they load again (once). For
   * failures about time, not content — a load started for an earlier request can give up on that
   * request's clock (an upstream call abandoned at its time limit) while a later one still has time.
   */
  rejoin?: ((err: unknown) => boolean) | undefined
}

/**
 * Concurrent loads of one key share one promise (one upstream request), until it settles.
 */
export function createSingleFlight({ rejoin }: SingleFlightOptions = {}) {
  const inflight = new Map<string, Promise<unknown>>()
  function start<value>(key: string, load: () => Promise<value>): Promise<value> {
    const pending = inflight.get(key)
    if (pending) return pending as Promise<value>
    const promise = load().finally(() => {
      if (inflight.get(key) === promise) inflight.delete(key)
    })
    inflight.set(key, promise)
    return promise
  }
  return function once<value>(key: string, load: () => Promise<value>): Promise<value> {
    const pending = inflight.get(key) as Promise<value> | undefined
    if (!pending || !rejoin) return start(key, load)
    return pending.catch((err: unknown) => {
      if (!rejoin(err)) throw err
      return start(key, load)
    })
  }
}
