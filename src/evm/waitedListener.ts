/**
 * An EVM event listener that ethereumjs waits for. Its emitter awaits exactly the listeners that
 * declare two parameters (data, resolve), so the one returned here keeps both. `handle` returns a
 * promise while the EVM must wait (resumed once it settles, either way) and nothing to go on at once;
 * what it throws rejects the emit, and so the execution.
 */
export function waitedListener<T>(
  handle: (data: T) => Promise<void> | undefined,
): (data: T, resolve: () => void) => void {
  return (data, resolve) => {
    const pending = handle(data)
    if (pending) pending.then(resolve, resolve)
    else resolve()
  }
}
