import type { RpcSession } from '../types/rpcSession.js'

export type PushSessionParameters = {
  /** Writes one text to the connection. */
  send(text: string): void
  /** What the connection holds unsent (written but not yet taken by the client). */
  queuedBytes(): number
  /** More than this unsent, and the client is dropped. */
  maxQueuedBytes: number
  /** Ends the connection with a reason (the transport's own way: a WebSocket close frame, a socket ended). */
  drop(reason: string): void
}

/**
 * A connection's session for subscriptions: notifications are written as they come; a client that
 * leaves more than `maxQueuedBytes` unread is dropped with a reason, so a slow reader never makes
 * the server's memory grow. `end()` when the connection closes: its subscriptions end with it.
 */
export function createPushSession({ send, queuedBytes, maxQueuedBytes, drop }: PushSessionParameters): RpcSession & {
  end(): void
} {
  const listeners: (() => void)[] = []
  let closed = false
  const end = () => {
    if (closed) return
    closed = true
    for (const listener of listeners.splice(0)) {
      try {
        listener()
      } catch {
        // one listener's failure does not keep the others from ending
      }
    }
  }
  return {
    get closed() {
      return closed
    },
    push(text) {
      if (closed) return
      if (queuedBytes() + text.length > maxQueuedBytes) {
        end()
        drop(`too slow: over ${maxQueuedBytes} bytes of notifications unread`)
        return
      }
      send(text)
    },
    onClose(listener) {
      if (closed) listener()
      else listeners.push(listener)
    },
    end,
  }
}
