import { type Endpoint, expose } from 'comlink'
import type { ExecutionAnchor } from '../chain/createHeaderStore.js'
import { createRemoteAnchor } from '../chain/createRemoteAnchor.js'
import { toRpcError } from '../errors/toRpcError.js'
import { errorResponseFor } from '../rpc/errorResponseFor.js'
import { createPushSession } from '../rpc/createPushSession.js'
import { type EdgetraceConfig, type EdgetraceService, createEdgetraceService } from './createEdgetraceService.js'
import { connectEdgetraceWorker } from './connectEdgetraceWorker.js'
import type { EdgetraceEvent, EdgetraceRemote } from './workerProtocol.js'

export type ServeEdgetraceOptions = {
  /**
   * Origins whose messages are served (default: this context's own origin). Messages that carry no
   * origin — from the page that created a dedicated worker, or through a MessagePort it handed
   * out — come from whoever holds the worker or the port, and are served.
   */
  allowedOrigins?: readonly (string | RegExp)[]
  /**
   * This worker's script, when the endpoint is a dedicated worker: long ranges then fan out to more
   * workers started from it (see EdgetraceConfig.workers).
   */
  workerScript?: string | undefined
}

/** Notifications the page may leave unanswered before its subscriptions are ended. */
const MAX_UNREAD = 10_000

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

  /**
   * The page's session, for eth_subscribe: notifications go to its listener as events. Each event is
   * a call the page answers once its listener ran: a page that leaves more than MAX_UNREAD
   * unanswered has its subscriptions ended, so the worker’s memory stays bounded.
   */
  let unread = 0
  let pageSession = newPageSession()
  function newPageSession() {
    return createPushSession({
      send(text) {
        const { params } = JSON.parse(text) as { params: { subscription: string; result: unknown } }
        unread++
        try {
          void Promise.resolve(listener?.({ type: 'notification', params }))
            .catch(() => undefined)
            .finally(() => {
              unread--
            })
        } catch {
          unread--
        }
      },
      queuedBytes: () => unread,
      maxQueuedBytes: MAX_UNREAD,
      drop: () => {
        pageSession = newPageSession()
      },
    })
  }

  const remote: EdgetraceRemote = {
    async start(config, anchor, pageUpstream) {
      if (!service) {
        const script = options.workerScript
        const startWorker =
          script && typeof Worker !== 'undefined'
            ? (nested: EdgetraceConfig, nestedAnchor?: ExecutionAnchor) =>
                connectEdgetraceWorker(new Worker(script, { type: 'module' }), nested, { anchor: nestedAnchor })
            : undefined
        service = createEdgetraceService(config, {
          startWorker,
          anchor: anchor ? createRemoteAnchor((tag) => anchor(tag)) : undefined,
          pageUpstream,
        }).then((s) => {
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
          pageSession,
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
      pageSession.end()
      pageSession = newPageSession()
      await s?.close()
    },
  }
  expose(remote, endpoint, ['', ...allowed])
  return remote
}
