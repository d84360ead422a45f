import { chmodSync, existsSync, lstatSync, unlinkSync } from 'node:fs'
import { type AddressInfo, type Server, type Socket, connect, createServer as createNetServer } from 'node:net'
import type { RpcHandler } from '../rpc/createRpcHandler.js'
import { createJsonFramer } from './createJsonFramer.js'
import { createPushSession } from '../rpc/createPushSession.js'

export type CreateSocketServerParameters = {
  handler: RpcHandler
  /** `unix:///path/to/edgetrace.ipc` (an IPC socket) or `tcp://host:port` (a raw TCP socket). */
  url: string
  /** Largest request accepted (as HTTP's body limit). */
  maxBodyBytes?: number
  /** Notifications one client may leave unread before it is dropped. */
  maxQueuedBytes?: number
}

export type SocketServer = { url: string; close(): Promise<void> }

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
  const server: Server = createNetServer({ allowHalfOpen: true }, (socket) => {
    connections.add(socket)
    const framer = createJsonFramer(maxBodyBytes)
    let inFlight = 0
    let ended = false
    const finish = () => {
      if (ended && inFlight === 0 && !socket.destroyed) socket.end()
    }
    const session = createPushSession({
      send: (text) => socket.write(`${text}\n`),
      queuedBytes: () => socket.writableLength,
      maxQueuedBytes,
      drop: () => socket.destroy(),
    })
    // The connection's calls are cancelled when it closes (a JavaScript tracer's thread is ended).
    const gone = new AbortController()
    socket.on('close', () => {
      connections.delete(socket)
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
      for (const text of texts) {
        inFlight++
        handler
          .handleText(text, { session, signal: gone.signal })
          .then((out) => {
            if (out !== undefined && !socket.destroyed) socket.write(`${out}\n`)
          })
          .catch(() => socket.destroy())
          .finally(() => {
            inFlight--
            finish()
          })
      }
      if (error) {
        const answer =
          error === 'parse error'
            ? { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }
            : {
                jsonrpc: '2.0',
                id: null,
                error: { code: -32600, message: `request too large (over ${maxBodyBytes} bytes)` },
              }
        socket.end(`${JSON.stringify(answer)}\n`)
        socket.pause()
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
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of connections) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
