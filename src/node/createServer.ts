import { type IncomingMessage, type ServerResponse, createServer as createHttpServer } from 'node:http'
import { type Http2ServerRequest, type Http2ServerResponse, createSecureServer } from 'node:http2'
import type { AddressInfo, Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'
import type { GraphqlHandler, GraphqlRequest } from '../rpc/graphql/createGraphqlHandler.js'
import type { RpcHandler } from '../rpc/createRpcHandler.js'
import { createPushSession } from '../rpc/createPushSession.js'
import { createConnectionOutbox } from './createConnectionOutbox.js'
import { hostAllowed } from './hostAllowed.js'
import { isJsonContentType } from './isJsonContentType.js'
import { originAllowed } from './originAllowed.js'
import { readBody } from './readBody.js'
import { whenDrained } from './whenDrained.js'
import { serveStatic } from './serveStatic.js'

export type CreateServerParameters = {
  handler: RpcHandler
  /** The handler WebSocket connections use (`--ws.api`); the HTTP one by default. */
  wsHandler?: RpcHandler | undefined
  /** Whether WebSocket upgrades are served on this listener (default true). */
  websocket?: boolean
  /**
   * TLS (`--https.*`): HTTPS with HTTP/2 and HTTP/1.1 on the same port (ALPN), WebSocket over TLS
   * on HTTP/1.1. Without it, plain HTTP/1.1.
   */
  tls?: { key: Buffer | string; cert: Buffer | string } | undefined
  host: string
  port: number
  /** `--http.corsdomain`: allowed origins (`*` for any); none by default. */
  corsDomains?: readonly string[]
  /**
   * `--ws.origins`: browser origins allowed to open a WebSocket (`*` for any), besides the server's
   * own origin and the `corsDomains`; none by default.
   */
  wsOrigins?: readonly string[]
  /** `--http.vhosts`: hostnames accepted in the Host header (`*` for any; IPs always); `localhost` by default. */
  vhosts?: readonly string[]
  /** Largest request body accepted (geth: 5 MiB). */
  maxBodyBytes?: number
  /**
   * Notifications left unread by one WebSocket client before it is dropped (default 16 MiB); answers
   * past it are not sent ahead — the client is not read until it takes them.
   */
  maxQueuedBytes?: number
  /** Requests of one WebSocket connection answered at once; past it the client is not read (default 64). */
  maxInFlight?: number
  /**
   * The trace explorer page: the directory of its build, served on GET (`/` is the page). Without
   * it, GET / answers the health check as /health does.
   */
  explorerDir?: string | undefined
  /** GET /stats: the daemon's running counters (the explorer shows what each answer cost). */
  counters?: (() => unknown) | undefined
  /** GET /metrics: the Prometheus text exposition (see createMetrics); none: 404. */
  metrics?: { render(): Promise<string>; readonly contentType: string } | undefined
  /**
   * GET /health in full: live, and ready (200) or not (503) with why (see createHealth). None: a
   * plain `{"status":"ok"}` while the process serves (a listener beyond loopback without --metrics).
   */
  health?: (() => Promise<{ ready: boolean }>) | undefined
  /** GET /explorer.json: what the explorer page may show at home (the devnet's named contracts and transactions). */
  explorerInfo?: unknown
  /**
   * GET /explorer-sources.json: a build output (solc standard JSON, a Hardhat or Foundry build-info)
   * the explorer page debugs at the source level (the embedded devnet's contracts); when given,
   * /explorer.json names it in `sources`.
   */
  explorerSources?: string | undefined
  /** `--graphql`: GraphQL on /graphql (POST with a JSON body, or GET with the query string). */
  graphql?: GraphqlHandler | undefined
}

/** Responses up to this size are sent whole; bigger ones stream. */
const STREAM_THRESHOLD = 256 * 1024

/** A streamed WebSocket answer waits for the client past this much unsent. */
const WS_HIGH_WATER = 256 * 1024

export type EdgetraceServer = {
  url: string
  /** Where WebSocket clients connect on this listener (empty when it serves none). */
  wsUrl: string
  close(): Promise<void>
}

type Request = IncomingMessage | Http2ServerRequest
type Response = ServerResponse | Http2ServerResponse

/** The Host a request names: HTTP/1.1's Host header, HTTP/2's :authority. */
const hostOf = (req: Request): string | undefined =>
  req.headers.host ?? (req.headers[':authority'] as string | undefined)

function corsOrigin(req: Request, domains: readonly string[]): string | undefined {
  const origin = req.headers.origin
  if (!origin || domains.length === 0) return undefined
  if (domains.includes('*')) return '*'
  return domains.includes(origin) ? origin : undefined
}

/** A plain-text HTTP error, as Go's http.Error writes it. */
function plainError(res: Response, status: number, message: string, headers: Record<string, string> = {}) {
  res
    .writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', ...headers })
    .end(`${message}\n`)
}

/** Refuses a WebSocket upgrade on the raw socket (no HTTP response object exists for it yet). */
function refuseUpgrade(socket: Duplex, status: number, reason: string, message: string) {
  const body = `${message}\n`
  socket.on('error', () => socket.destroy())
  socket.once('finish', () => socket.destroy())
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `X-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  )
}

/** The TLS listener, or a start-up error that names the flags: a key that does not match, a file that is not PEM. */
function secureServer(
  tls: { key: Buffer | string; cert: Buffer | string },
  onHttp: (req: Http2ServerRequest, res: Http2ServerResponse) => void,
) {
  try {
    return createSecureServer({ allowHTTP1: true, key: tls.key, cert: tls.cert }, onHttp)
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    if (/key values mismatch/.test(message)) throw new Error('--https.key does not match --https.cert')
    throw new Error(`--https.cert / --https.key: not a usable certificate and key (${message})`)
  }
}

/** What a newcomer reads when the server cannot listen: the port taken, a privileged port, no such address. */
export function listenError(err: NodeJS.ErrnoException, host: string, port: number): Error {
  if (err.code === 'EADDRINUSE')
    return new Error(`port ${port} is in use on ${host}: try --http.port 0 (any free port)`)
  if (err.code === 'EACCES')
    return new Error(`port ${port} needs privileges on ${host}: try --http.port 0 or a port above 1023`)
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
    return new Error(`cannot listen on ${host}: no such address on this machine (see --http.addr)`)
  return err
}

/**
 * The Node transport: JSON-RPC over HTTP POST on `/` and over WebSocket on the same port. Thin: all
 * behaviour (envelopes, batches, errors, gating) is the shared RPC handler's.
 */
export async function createServer({
  handler,
  wsHandler = handler,
  websocket = true,
  tls,
  host,
  port,
  corsDomains = [],
  wsOrigins = [],
  vhosts = ['localhost'],
  maxBodyBytes = 5 * 1024 * 1024,
  maxQueuedBytes = 16 * 1024 * 1024,
  maxInFlight,
  explorerDir,
  counters,
  metrics,
  health,
  explorerInfo,
  explorerSources,
  graphql,
}: CreateServerParameters): Promise<EdgetraceServer> {
  const originRules = [...wsOrigins, ...corsDomains]

  /**
   * geth's WebSocket origin check, for browsers (other clients send no Origin and are let in; they
   * could send any). The server's own origin is allowed too, but only under a Host the vhost check
   * accepts: a DNS-rebinding page is "same origin" with whatever hostname it came from.
   */
  function wsOriginAllowed(req: IncomingMessage): boolean {
    const origin = req.headers.origin
    if (origin === undefined) return true
    if (originAllowed(origin, originRules)) return true
    return sameOrigin(origin, req.headers.host)
  }

  /** A page of this server's own (its origin is the Host asked for, a Host the vhost check accepts). */
  function sameOrigin(origin: string, host: string | undefined): boolean {
    if (!host || !hostAllowed(host, vhosts)) return false
    try {
      return new URL(origin).origin === new URL(`${tls ? 'https' : 'http'}://${host}`).origin
    } catch {
      return false
    }
  }

  async function onRequest(req: Request, res: Response) {
    // Before anything else, CORS included, as geth's handler stack does.
    if (!hostAllowed(hostOf(req), vhosts)) {
      plainError(res, 403, 'invalid host specified')
      return
    }
    const origin = corsOrigin(req, corsDomains)
    if (origin) {
      res.setHeader('Access-Control-Allow-Origin', origin)
      res.setHeader('Vary', 'Origin')
    }
    if (req.method === 'OPTIONS') {
      if (origin) {
        res.setHeader('Access-Control-Allow-Methods', 'POST, GET, OPTIONS')
        res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? 'content-type')
        res.setHeader('Access-Control-Max-Age', '600')
      }
      res.writeHead(204).end()
      return
    }
    const route = (req.url ?? '/').split('?')[0]
    if (route === '/graphql' && graphql) {
      await onGraphql(req, res, graphql)
      return
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const path = route
      if (path === '/health' || (path === '/' && explorerDir === undefined)) {
        if (!health) {
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')
          return
        }
        const report = await health()
        res
          .writeHead(report.ready ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' })
          .end(JSON.stringify(report))
        return
      }
      if (path === '/metrics' && metrics) {
        const text = await metrics.render()
        res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(text)
        return
      }
      if (path === '/stats' && counters) {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        res.end(JSON.stringify(counters()))
        return
      }
      if (path === '/explorer.json' && explorerDir !== undefined) {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        const sources = explorerSources !== undefined ? { sources: ['explorer-sources.json'] } : {}
        res.end(JSON.stringify({ ...((explorerInfo as object | undefined) ?? {}), ...sources }))
        return
      }
      if (path === '/explorer-sources.json' && explorerDir !== undefined && explorerSources !== undefined) {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        res.end(explorerSources)
        return
      }
      if (explorerDir !== undefined && (await serveStatic(explorerDir, req.url ?? '/', res, req.method === 'HEAD')))
        return
      plainError(res, 404, explorerDir === undefined ? 'not found (JSON-RPC is POST /)' : 'not found')
      return
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST, GET, OPTIONS' }).end('method not allowed\n')
      return
    }
    const declared = Number(req.headers['content-length'])
    if (declared > maxBodyBytes * 5) {
      // Far too large to wait for: answered without reading the body, then closed.
      plainError(res, 413, `content length too large (${declared}>${maxBodyBytes})`, { connection: 'close' })
      return
    }
    // Only JSON is executed: a cross-origin page may POST text/plain without a CORS preflight. A
    // length declared over the limit is answered 413 first, as geth's validateRequest orders them.
    const unsupported = () => plainError(res, 415, 'invalid content type, only application/json is supported')
    if (!(declared > maxBodyBytes) && !isJsonContentType(req.headers['content-type'])) return unsupported()
    // A body over the limit (declared or not) is read to its end and dropped before the 413, within
    // bounds (readBody): a client answered while still sending would get EPIPE instead of the 413.
    const read = await readBody(req, maxBodyBytes)
    if ('aborted' in read) return
    if ('tooLarge' in read) {
      const size = Math.max(read.tooLarge, declared || 0)
      res
        .writeHead(413, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' })
        .end(`content length too large (${size}>${maxBodyBytes})\n`, () => {
          if (!read.complete) req.destroy()
        })
      return
    }
    if (!isJsonContentType(req.headers['content-type'])) return unsupported()
    const chunks = [read.body]
    // Small responses go out whole with a content-length; a big (streamed) one is sent chunked as
    // it is produced, waiting for the socket to drain so memory stays bounded.
    let held: string[] = []
    let heldBytes = 0
    let streaming = false
    // A client that closes its connection before its answer is done cancels its calls (a JavaScript
    // tracer's thread is ended).
    const gone = new AbortController()
    res.once('close', () => {
      if (!res.writableFinished) gone.abort(new Error('the client went away'))
    })
    const text = Buffer.concat(chunks).toString('utf8')
    const owed = await handler.handleTextStreaming(
      text,
      async (chunk) => {
        if (res.destroyed) throw new Error('client went away')
        if (!streaming) {
          held.push(chunk)
          heldBytes += chunk.length
          if (heldBytes < STREAM_THRESHOLD) return
          streaming = true
          res.writeHead(200, { 'content-type': 'application/json' })
          chunk = held.join('')
          held = []
        }
        if (!(res as ServerResponse).write(chunk)) await whenDrained(res)
      },
      { signal: gone.signal },
    )
    if (streaming) {
      res.end()
      return
    }
    const out = owed ? held.join('') : ''
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) }).end(out)
  }

  /**
   * /graphql: POST { query, variables, operationName } as JSON, or GET ?query=…&variables=… (queries
   * only). A browser's request from an origin `--http.corsdomain` does not allow (nor this server's
   * own) is refused before anything runs: a page elsewhere cannot have GraphQL run for it.
   */
  async function onGraphql(req: Request, res: Response, handle: GraphqlHandler) {
    const origin = req.headers.origin
    if (origin !== undefined && !corsOrigin(req, corsDomains) && !sameOrigin(origin, hostOf(req))) {
      plainError(res, 403, 'origin not allowed (see --http.corsdomain)')
      return
    }
    let request: GraphqlRequest
    if (req.method === 'GET') {
      const params = new URL(req.url ?? '/', 'http://x').searchParams
      const variables = params.get('variables')
      try {
        request = {
          query: params.get('query') ?? undefined,
          variables: variables ? JSON.parse(variables) : undefined,
          operationName: params.get('operationName') ?? undefined,
        }
      } catch {
        plainError(res, 400, 'variables is not JSON')
        return
      }
    } else if (req.method === 'POST') {
      if (!isJsonContentType(req.headers['content-type'])) {
        plainError(res, 415, 'invalid content type, only application/json is supported')
        return
      }
      // Over the limit, read to its end and dropped first, as JSON-RPC's (readBody): the client gets its 413.
      const read = await readBody(req, maxBodyBytes)
      if ('aborted' in read) return
      if ('tooLarge' in read) {
        res
          .writeHead(413, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' })
          .end(`content length too large (${read.tooLarge}>${maxBodyBytes})\n`, () => {
            if (!read.complete) req.destroy()
          })
        return
      }
      try {
        request = JSON.parse(read.body.toString('utf8')) as GraphqlRequest
      } catch {
        plainError(res, 400, 'the body is not JSON')
        return
      }
      if (typeof request !== 'object' || request === null) {
        plainError(res, 400, 'the body must be a JSON object { query, variables, operationName }')
        return
      }
    } else {
      res.writeHead(405, { allow: 'POST, GET, OPTIONS' }).end('method not allowed\n')
      return
    }
    const { status, body, headers = {} } = await handle(request, { readOnly: req.method === 'GET' })
    res
      .writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
      .end(body)
  }

  const onHttp = (req: Request, res: Response) => {
    onRequest(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end()
      else res.destroy()
    })
  }
  const http = tls ? secureServer(tls, onHttp) : createHttpServer(onHttp)
  // Every connection, to end them all on close (an HTTP/2 server has no closeAllConnections).
  const sockets = new Set<Socket>()
  http.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  const wss = new WebSocketServer({ noServer: true, maxPayload: maxBodyBytes })
  // Upgrades are checked here, before ws answers 101: a refused one gets 403 and nothing runs.
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!websocket) {
      refuseUpgrade(socket, 400, 'Bad Request', 'WebSocket is served on its own port here (see --ws.port)')
      return
    }
    if (!wsOriginAllowed(req)) {
      refuseUpgrade(socket, 403, 'Forbidden', 'origin not allowed (see --ws.origins)')
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
  })
  wss.on('connection', (socket, req: IncomingMessage) => {
    // Answers leave one message at a time; a big one is sent as the fragments of one message while
    // it is computed, waiting for the client to take them (its socket's drain). A client pipelining
    // without reading is not read past the outbox's bounds (see createConnectionOutbox).
    const raw = req.socket
    const outbox = createConnectionOutbox({
      transport: {
        write: (chunk, last) => {
          socket.send(chunk, { fin: last })
          return socket.bufferedAmount < WS_HIGH_WATER
        },
        drained: () => (!raw.writableNeedDrain || raw.destroyed ? Promise.resolve() : whenDrained(raw)),
        buffered: () => socket.bufferedAmount,
        pause: () => socket.pause(),
        resume: () => socket.resume(),
        destroy: () => socket.terminate(),
        get closed() {
          return socket.readyState !== socket.OPEN
        },
      },
      handle: (text, write) => wsHandler.handleTextStreaming(text, write, { session, signal: gone.signal }),
      maxQueuedBytes,
      ...(maxInFlight !== undefined ? { maxInFlight } : {}),
    })
    const session = createPushSession({
      send: (text) => void outbox.send(text),
      queuedBytes: () => outbox.queuedBytes(),
      maxQueuedBytes,
      drop: (reason) => {
        socket.close(1008, reason)
        // A client that does not read will not read the close either.
        setTimeout(() => socket.terminate(), 5000).unref()
      },
    })
    // The connection's calls are cancelled when it closes (a JavaScript tracer's thread is ended).
    const gone = new AbortController()
    socket.on('close', () => {
      session.end()
      gone.abort(new Error('the client went away'))
    })
    socket.on('message', (data) => outbox.receive(data.toString()))
  })
  await new Promise<void>((resolve, reject) => {
    http.once('error', (err: NodeJS.ErrnoException) => reject(listenError(err, host, port)))
    http.listen(port, host, () => resolve())
  })
  const address = http.address() as AddressInfo
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `${tls ? 'https' : 'http'}://${hostPart}:${address.port}`,
    wsUrl: websocket ? `${tls ? 'wss' : 'ws'}://${hostPart}:${address.port}` : '',
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate()
        wss.close()
        for (const socket of sockets) socket.destroy()
        http.close(() => resolve())
      }),
  }
}
