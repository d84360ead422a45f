import { type Endpoint, expose } from 'comlink'
import { toRpcError } from '../errors/toRpcError.js'
import { errorResponseFor } from '../rpc/errorResponseFor.js'
import { type EdgetraceService, createEdgetraceService } from './createEdgetraceService.js'
import type { EdgetraceEvent, EdgetraceRemote } from './workerProtocol.js'

export type ServeEdgetraceOptions = {
  /**
   * Origins whose messages are served (default: this context's own origin). Messages that carry no
   * origin — from the page that created a dedicated worker, or through a MessagePort it handed
   * out — come from whoever holds the worker or the port, and are served.
   */
  allowedOrigins?: readonly (string | RegExp)[]
}

/**
 * Serves edgetrace on a comlink endpoint (a worker's global scope, a MessagePort, a window): the
 * page calls `start(config)` once, then `request(message)`. Messages from other origins are ignored.
 */
export function serveEdgetrace(endpoint: Endpoint, options: ServeEdgetraceOptions = {}): EdgetraceRemote {
  const own = (globalThis as { location?: { origin?: string } }).location?.origin
  const allowed = options.allowedOrigins ?? (own ? [own] : [])
  let service: Promise<EdgetraceService> | undefined
  let listener: ((event: EdgetraceEvent) => void) | undefined
  const emit = (event: EdgetraceEvent) => {
    try {
      void Promise.resolve(listener?.(event)).catch(() => undefined)
    } catch {
      // The page went away.
    }
  }
  const notStarted = { code: -32603, message: 'edgetrace is not started: call start(config) first' }

  const remote: EdgetraceRemote = {
    async start(config) {
      if (!service) {
        service = createEdgetraceService(config).then((s) => {
          s.onReachability((reachable, reason) => emit({ type: 'reachability', reachable, reason }))
          return s
        })
        service.catch(() => {
          service = undefined
        })
      }
      try {
        return { status: (await service).status() }
      } catch (err) {
        return { error: toRpcError(err) }
      }
    },
    async request(message, ticket) {
      if (!service) return errorResponseFor(message, notStarted)
      try {
        const s = await service
        return await s.request(
          message,
          listener ? (progress) => emit({ type: 'progress', ticket, progress }) : undefined,
        )
      } catch (err) {
        return errorResponseFor(message, toRpcError(err))
      }
    },
    async subscribe(next) {
      listener = next
    },
    async status() {
      return service ? (await service.catch(() => undefined))?.status() : undefined
    },
    async flush() {
      await (await service?.catch(() => undefined))?.flush()
    },
    async clearCache() {
      await (await service?.catch(() => undefined))?.clearCache()
    },
    async close() {
      const s = await service?.catch(() => undefined)
      service = undefined
      await s?.close()
    },
  }
  expose(remote, endpoint, ['', ...allowed])
  return remote
}
