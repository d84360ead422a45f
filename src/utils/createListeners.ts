/** An EIP-1193 provider's listeners, by event: `on` and `removeListener` keep them, `emit` calls each. */
export type Listeners<events extends Record<keyof events, (...args: never[]) => void>> = {
  add<event extends keyof events>(event: event, listener: events[event]): void
  remove<event extends keyof events>(event: event, listener: events[event]): void
  /** Calls every listener of `event` with `args`, in the order added; a listener's throw is its own. */
  emit<event extends keyof events>(event: event, ...args: Parameters<events[event]>): void
}

/** Listeners by event for the providers of both hosts (Node's createEdgetrace, the browser's EIP-1193 provider). */
export function createListeners<events extends Record<keyof events, (...args: never[]) => void>>(): Listeners<events> {
  const listeners = new Map<keyof events, Set<(...args: never[]) => void>>()
  return {
    add(event, listener) {
      let set = listeners.get(event)
      if (!set) listeners.set(event, (set = new Set()))
      set.add(listener)
    },
    remove(event, listener) {
      listeners.get(event)?.delete(listener)
    },
    emit(event, ...args) {
      for (const l of listeners.get(event) ?? []) {
        try {
          ;(l as (...a: unknown[]) => void)(...args)
        } catch {
          // A listener's failure is its own.
        }
      }
    },
  }
}
