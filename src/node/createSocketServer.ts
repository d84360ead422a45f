import { chmodSync, existsSync, lstatSync, unlinkSync } from 'node:fs'
import { type AddressInfo, type Server, type Socket, connect, createServer as createNetServer } from 'node:net'
import type { RpcHandler } from '../rpc/createRpcHandler.js'
import { createJsonFramer } from './createJsonFramer.js'
import { createPushSession } from '../rpc/createPushSession.js'
import { type ConnectionOutbox, createConnectionOutbox } from './createConnectionOutbox.js'
import { whenDrained } from './whenDrained.js'

export type CreateSocketServerParameters = {
  handler: RpcHandler
  /** `unix:///path/to/edgetrace.ipc` (an IPC socket) or `tcp://host:port` (a raw TCP socket). */
  url: string
  /** Largest request accepted (as HTTP's body limit). */
  maxBodyBytes?: number
  /**
   * Notifications one client may leave unread before it is dropped; answers past it are not sent
   * ahead — the client is not read until it takes them.
   */
  maxQueuedBytes?: number
  /** Requests of one connection answered at once; past it the client is not read (default 64). */
  maxInFlight?: number
}

export type SocketServer = {
  url: string
  close(): Promise<void>
  /** Each open connection's bytes waiting for its client, and its requests being or waiting to be answered. */
  connections(): { queuedBytes: number; pending: number }[]
}

/** What `--socket.url` names: a Unix socket's path, or a TCP host and port. */
export function parseSocketUrl(url: string): { path: string } | { host: string; port: number } {
  const unix = url.match(/^unix:\/\/(\/.+)$/)
  if (unix) return { path: unix[1]! }
  const tcp = url.match(/^tcp:\/\/(\[[^\]]+\]|[^:/]+):(\d+)$/)
  if (tcp && Number(tcp[2]) <= 65535) return { host: tcp[1]!.replace(/^\[|\]$/g, ''), port: Number(tcp[2]) }
  throw new Error(`--socket.url expects unix:///path/to/file.ipc or tcp://host:port, got "${url}"`)
}

/** Whether something answers on a Unix socket path (a live daemon), or the file is left by a dead one. */
function socketIsLive(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path)
    probe.once('connect', () => {
      probe.destroy()
      resolve(true)
    })
    probe.once('error', () => resolve(false))
  })
}

/**
 * JSON-RPC over a Unix socket (IPC, as geth's and the reference daemon's IPC clients speak it) or a
 * raw TCP socket: a stream of JSON texts each way, each answer followed by a newline; subscriptions
 * pushed on the same connection. Only frames bytes: every message goes to the same core as HTTP's.
 * The IPC socket is made owner-only (0600); a socket file left by a dead process is replaced, a live
 * one refused. A malformed or oversized message is answered with its error and the connection
 * closed; other connections are not touched.
 */
export async function createSocketServer({
  handler,
  url,
  maxBodyBytes = 5 * 1024 * 1024,
  maxQueuedBytes = 16 * 1024 * 1024,
  maxInFlight,
}: CreateSocketServerParameters): Promise<SocketServer> {
  const target = parseSocketUrl(url)
  if ('path' in target && existsSync(target.path)) {
    if (!lstatSync(target.path).isSocket())
      throw new Error(`--socket.url: ${target.path} exists and is not a socket: remove it or choose another path`)
    if (await socketIsLive(target.path))
      throw new Error(`--socket.url: ${target.path} is in use by a running process: stop it or choose another path`)
    unlinkSync(target.path) // left by a process that is gone
  }
  const connections = new Set<Socket>()
  const outboxes = new Map<Socket, ConnectionOutbox>()
  const server: Server = createNetServer({ allowHalfOpen: true }, (socket) => {
    connections.add(socket)
    const framer = createJsonFramer(maxBodyBytes)
    let ended = false
    const finish = () => {
      if (ended && outbox.pending === 0 && !socket.destroyed) socket.end()
    }
    // Answers leave one at a time, a big one streamed up to its newline with backpressure; a client
    // that pipelines without reading is not read past the outbox's bounds.
    const outbox = createConnectionOutbox({
      transport: {
        write: (chunk, last) => socket.write(last ? `${chunk}\n` : chunk),
        drained: () => (!socket.writableNeedDrain || socket.destroyed ? Promise.resolve() : whenDrained(socket)),
        buffered: () => socket.writableLength,
        pause: () => socket.pause(),
        resume: () => {
          if (!ended) socket.resume()
        },
        destroy: () => socket.destroy(),
        get closed() {
          return socket.destroyed
        },
      },
      handle: (text, write) => handler.handleTextStreaming(text, write, { session, signal: gone.signal }),
      maxQueuedBytes,
      ...(maxInFlight !== undefined ? { maxInFlight } : {}),
      onIdle: () => finish(),
    })
    outboxes.set(socket, outbox)
    const session = createPushSession({
      send: (text) => void outbox.send(text),
      queuedBytes: () => outbox.queuedBytes(),
      maxQueuedBytes,
      drop: () => socket.destroy(),
    })
    // The connection's calls are cancelled when it closes (a JavaScript tracer's thread is ended).
    const gone = new AbortController()
    socket.on('close', () => {
      connections.delete(socket)
      outboxes.delete(socket)
      session.end()
      gone.abort(new Error('the client went away'))
    })
    socket.on('error', () => socket.destroy())
    socket.on('end', () => {
      ended = true
      finish()
    })
    socket.on('data', (chunk: Buffer) => {
      const { texts, error } = framer.push(chunk)
      for (const text of texts) outbox.receive(text)
      if (error) {
        const answer =
          error === 'parse error'
            ? { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }
            : {
                jsonrpc: '2.0',
                id: null,
                error: { code: -32600, message: `request too large (over ${maxBodyBytes} bytes)` },
              }
        socket.pause()
        ended = true
        void outbox.send(JSON.stringify(answer)).then(() => socket.end())
      }
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    if ('path' in target) {
      // Owner-only from the start: the socket file is created under this umask.
      const umask = process.umask(0o177)
      try {
        server.listen(target.path, () => resolve())
      } finally {
        process.umask(umask)
      }
    } else server.listen(target.port, target.host, () => resolve())
  })
  if ('path' in target) chmodSync(target.path, 0o600)
  const address = server.address()
  const shown =
    'path' in target
      ? `unix://${target.path}`
      : `tcp://${(address as AddressInfo).family === 'IPv6' ? `[${(address as AddressInfo).address}]` : (address as AddressInfo).address}:${(address as AddressInfo).port}`
  return {
    url: shown,
    connections: () => [...outboxes.values()].map((o) => ({ queuedBytes: o.queuedBytes(), pending: o.pending })),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of connections) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
