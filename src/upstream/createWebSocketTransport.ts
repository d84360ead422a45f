import { UpstreamUnavailableError } from '../errors/upstream.js'
import { RetryableError } from './RetryableError.js'
import type { JsonRpcReply, Reply, Transport } from './types.js'

/** The part of the WebSocket class the client uses (browsers' global, or the `ws` package's). */
export type WebSocketConstructor = new (
  url: string,
) => {
  /** Sends one text frame. */
  send(data: string): void
  /** Closes the socket. */
  close(): void
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readyState: number
  /** Called once the socket is open. */
  onopen: unknown
  /** Called once the socket has closed. */
  onclose: unknown
  /** Called on a socket error. */
  onerror: unknown
  /** Called with each message received. */
  onmessage: unknown
}

type Socket = { send(data: string): void; close(): void; readyState: number }
type Waiter = { resolve: (json: unknown) => void; reject: (err: unknown) => void }

/**
 * Sends each body as a frame on one shared socket, opened on first use and again after it drops.
 * A reply is matched to its request by the ids it carries; a drop fails every request waiting on the
 * socket as retryable. `safeUrl` (credentials removed) is the only URL a message may show.
 */
export function createWebSocketTransport({
  url,
  safeUrl,
  timeoutMs,
  webSocket,
}: {
  url: string
  safeUrl: string
  timeoutMs: number
  /** The runtime's global WebSocket when undefined. */
  webSocket: WebSocketConstructor | undefined
}): Transport {
  // Parsed now, as over HTTP: an invalid URL fails when the client is made, not on its first call.
  new URL(url)
  let socket: Promise<Socket> | undefined
  const waiters = new Map<number, Waiter>()
  const notificationListeners = new Set<(message: { method: string; params: unknown }) => void>()
  const reopenListeners = new Set<() => void>()
  let opened = 0

  function failWaiters(reason: string) {
    for (const waiter of waiters.values()) waiter.reject(new RetryableError(reason))
    waiters.clear()
  }

  async function open(): Promise<Socket> {
    const Impl = webSocket ?? (globalThis as unknown as { WebSocket?: WebSocketConstructor }).WebSocket
    if (!Impl)
      throw new UpstreamUnavailableError(safeUrl, 'this runtime has no WebSocket class: pass one as `webSocket`')
    return new Promise<Socket>((resolve, reject) => {
      const ws = new Impl(url)
      const timer = setTimeout(() => {
        ws.close()
        reject(new RetryableError(`WebSocket connect timed out after ${timeoutMs} ms`))
      }, timeoutMs)
      ws.onopen = () => {
        clearTimeout(timer)
        resolve(ws)
        if (opened++ > 0) for (const listener of reopenListeners) listener()
      }
      ws.onerror = () => {
        clearTimeout(timer)
        reject(new RetryableError('WebSocket connection failed'))
      }
      ws.onclose = () => {
        clearTimeout(timer)
        socket = undefined
        failWaiters('WebSocket connection dropped')
      }
      ws.onmessage = (event: { data: unknown }) => {
        let json: unknown
        try {
          json = JSON.parse(String(event.data))
        } catch {
          return
        }
        const note = json as { id?: unknown; method?: unknown; params?: unknown }
        if (!Array.isArray(json) && typeof note?.method === 'string' && note.id === undefined) {
          for (const listener of notificationListeners) listener({ method: note.method, params: note.params })
          return
        }
        const first = Array.isArray(json) ? (json[0] as JsonRpcReply | undefined) : (json as JsonRpcReply)
        const ids = Array.isArray(json) ? json.map((r: JsonRpcReply) => r?.id) : [first?.id]
        for (const id of ids) {
          const waiter = typeof id === 'number' ? waiters.get(id) : undefined
          if (waiter) {
            for (const other of ids) if (typeof other === 'number') waiters.delete(other)
            waiter.resolve(json)
            return
          }
        }
      }
    })
  }

  return {
    async send(body: string, ids: readonly number[], signal: AbortSignal): Promise<Reply> {
      if (!socket) {
        socket = open()
        socket.catch(() => (socket = undefined))
      }
      const ws = await socket
      return new Promise<Reply>((resolve, reject) => {
        const done = () => {
          clearTimeout(timer)
          signal.removeEventListener('abort', abandon)
          for (const id of ids) waiters.delete(id)
        }
        const timer = setTimeout(() => {
          done()
          reject(new RetryableError(`request timed out after ${timeoutMs} ms`))
        }, timeoutMs)
        const abandon = () => {
          done()
          reject(signal.reason)
        }
        signal.addEventListener('abort', abandon, { once: true })
        const waiter: Waiter = {
          resolve: (json: unknown) => {
            done()
            resolve({ status: 200, json })
          },
          reject: (err: unknown) => {
            done()
            reject(err)
          },
        }
        for (const id of ids) waiters.set(id, waiter)
        try {
          ws.send(body)
        } catch {
          waiter.reject(new RetryableError('WebSocket send failed'))
        }
      })
    },
    onNotification(listener) {
      notificationListeners.add(listener)
      return () => notificationListeners.delete(listener)
    },
    onReopen(listener) {
      reopenListeners.add(listener)
      return () => reopenListeners.delete(listener)
    },
    async close() {
      const s = socket
      socket = undefined
      if (s) (await s.catch(() => undefined))?.close()
    },
  }
}
