import { type IncomingMessage, type ServerResponse, createServer as createHttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocketServer } from 'ws'
import type { RpcHandler } from '../rpc/createRpcHandler.js'

export type CreateServerParameters = {
  handler: RpcHandler
  host: string
  port: number
  /** `--http.corsdomain`: allowed origins (`*` for any); none by default. */
  corsDomains?: readonly string[]
  /** Largest request body accepted (geth: 5 MiB). */
  maxBodyBytes?: number
}

/** Responses up to this size are sent whole; bigger ones stream. */
const STREAM_THRESHOLD = 256 * 1024

export type EdgetraceServer = {
  url: string
  wsUrl: string
  close(): Promise<void>
}

function corsOrigin(req: IncomingMessage, domains: readonly string[]): string | undefined {
  const origin = req.headers.origin
  if (!origin || domains.length === 0) return undefined
  if (domains.includes('*')) return '*'
  return domains.includes(origin) ? origin : undefined
}

/**
 * The Node transport: JSON-RPC over HTTP POST on `/` and over WebSocket on the same port. Thin: all
 * behaviour (envelopes, batches, errors, gating) is the shared RPC handler's.
 */
export async function createServer({
  handler,
  host,
  port,
  corsDomains = [],
  maxBodyBytes = 5 * 1024 * 1024,
}: CreateServerParameters): Promise<EdgetraceServer> {
  async function onRequest(req: IncomingMessage, res: ServerResponse) {
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
    if (req.method === 'GET' && (req.url === '/' || req.url === '/health')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')
      return
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST, GET, OPTIONS' }).end('method not allowed\n')
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    for await (const chunk of req) {
      size += (chunk as Buffer).length
      if (size > maxBodyBytes) {
        tooLarge = true
        break
      }
      chunks.push(chunk as Buffer)
    }
    if (tooLarge) {
      res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' }).end(`content length too large (${size}>${maxBodyBytes})\n`)
      req.destroy()
      return
    }
    // Small responses go out whole with a content-length; a big (streamed) one is sent chunked as
    // it is produced, waiting for the socket to drain so memory stays bounded.
    let held: string[] = []
    let heldBytes = 0
    let streaming = false
    const owed = await handler.handleTextStreaming(Buffer.concat(chunks).toString('utf8'), async (chunk) => {
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
      if (!res.write(chunk)) await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done)
          res.off('close', done)
          resolve()
        }
        res.on('drain', done)
        res.on('close', done)
      })
    })
    if (streaming) {
      res.end()
      return
    }
    const out = owed ? held.join('') : ''
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) }).end(out)
  }

  const http = createHttpServer((req, res) => {
    onRequest(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end()
      else res.destroy()
    })
  })
  const wss = new WebSocketServer({ server: http, maxPayload: maxBodyBytes })
  wss.on('connection', (socket) => {
    socket.on('message', (data) => {
      handler
        .handleText(data.toString())
        .then((out) => {
          if (out !== undefined && socket.readyState === socket.OPEN) socket.send(out)
        })
        .catch(() => socket.close(1011))
    })
  })
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(port, host, () => resolve())
  })
  const address = http.address() as AddressInfo
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${hostPart}:${address.port}`,
    wsUrl: `ws://${hostPart}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate()
        wss.close()
        http.closeAllConnections()
        http.close(() => resolve())
      }),
  }
}
