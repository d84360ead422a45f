/**
 * A client connection that can be pushed to (WebSocket, IPC, TCP, a browser page's port): what
 * eth_subscribe needs. HTTP has none, so subscriptions there are "notifications not supported".
 */
export type RpcSession = {
  /** Sends one JSON-RPC notification (its text). The transport bounds what waits unread. */
  push(text: string): void
  /** Called once when the connection ends (its subscriptions end with it). */
  onClose(listener: () => void): void
  readonly closed: boolean
}
