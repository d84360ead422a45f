import type { RemoteAnchorHead } from '../chain/createRemoteAnchor.js'
import type { ProgressEvent } from '../types/progress.js'
import type { JsonRpcErrorObject, JsonRpcResponse } from '../types/jsonRpc.js'
import type { EdgetraceConfig, EdgetraceStatus, PageUpstreamBridge } from './createEdgetraceService.js'

/** An event the worker sends its page: a request's progress, or the upstream's reachability. */
export type EdgetraceEvent =
  | { type: 'progress'; ticket: number | undefined; progress: ProgressEvent }
  | { type: 'reachability'; reachable: boolean; reason?: string | undefined }
  /** An eth_subscription notification for the page: `{ subscription, result }`. */
  | { type: 'notification'; params: { subscription: string; result: unknown } }

/**
 * What a worker (or any endpoint serving edgetrace) offers over comlink. Nothing throws across the
 * boundary — comlink would drop an error's fields — failures come back as values.
 */
export type EdgetraceRemote = {
  /**
   * Starts the daemon; a second call answers with the running one's status. `anchor` (a comlink
   * proxy): a pool worker's blocks resolve through the anchor of the daemon that started it, asked
   * by tag, instead of a light client of its own. `pageUpstream` (a comlink proxy): answers the
   * calls of `config.upstream`'s `{ page: i }` entries, upstreams only the page holds.
   */
  start(
    config: EdgetraceConfig,
    anchor?: (tag: 'latest' | 'safe' | 'finalized') => Promise<RemoteAnchorHead>,
    pageUpstream?: PageUpstreamBridge,
  ): Promise<{ status: EdgetraceStatus } | { error: JsonRpcErrorObject }>
  /**
   * One JSON-RPC message → its response(s); errors are JSON-RPC error objects. Progress of long
   * calls goes to the subscribed listener, tagged with `ticket`.
   */
  request(message: unknown, ticket?: number): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined>
  /** Registers the listener of progress and reachability events (a comlink proxy). */
  subscribe(listener: (event: EdgetraceEvent) => void): Promise<void>
  status(): Promise<EdgetraceStatus | undefined>
  /** Waits until the persistent cache has everything written. */
  flush(): Promise<void>
  clearCache(): Promise<void>
  close(): Promise<void>
}
