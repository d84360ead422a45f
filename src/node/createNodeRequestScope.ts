import { AsyncLocalStorage } from 'node:async_hooks'
import type { Deadline, RequestScope } from '../utils/createDeadline.js'

/**
 * Node's request scope: the deadline of the request being served follows its work across awaits,
 * timers and batched upstream calls (AsyncLocalStorage), so the upstream client bounds each call by
 * the deadline of the request that needs it without every layer passing it along.
 */
export function createNodeRequestScope(): RequestScope {
  const storage = new AsyncLocalStorage<Deadline>()
  return {
    run: (deadline, work) => storage.run(deadline, work),
    current: () => storage.getStore(),
  }
}
