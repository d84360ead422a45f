import { type IncomingMessage, type ServerResponse, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'

export type Balancer = {
  url: string
  /** Requests each backend answered, in the order given. */
  readonly answered: readonly number[]
  close(): Promise<void>
}

/** A request body larger than this is refused (413), as edgetrace's own limit does. */
const MAX_BODY_BYTES = 16 * 1024 * 1024
/** A backend that failed to connect is skipped this long, then tried again. */
const DOWN_MS = 2_000

/**
 * The example fleet's load balancer (tools/fleet): HTTP, round robin over the backends, each request
 * sent whole to the next one that is up. A backend that cannot be reached (refused, reset before an
 * answer) is skipped for 2 s and the request goes to the next one, so a server that dies costs
 * nothing but its in-flight answers. Any edgetrace server can answer any request: none keeps state a
 * request needs but the shared cache (subscriptions, the txpool view and JavaScript-tracer threads
 * are per process: WebSocket clients stay with one server and are not balanced here).
 */
export async function createBalancer({
  backends,
  host = '127.0.0.1',
  port = 0,
}: {
  backends: readonly string[]
  host?: string
  port?: number
}): Promise<Balancer> {
  const answered = backends.map(() => 0)
  const downUntil = backends.map(() => 0)
  let next = 0

  function forward(
    index: number,
    req: IncomingMessage,
    body: Buffer,
  ): Promise<{ res: IncomingMessage } | { error: Error }> {
    const target = new URL(req.url ?? '/', backends[index]!)
    return new Promise((resolve) => {
      const out = request(
        target,
        {
          method: req.method,
          headers: { ...req.headers, host: target.host, 'content-length': String(body.length) },
        },
        (res) => resolve({ res }),
      )
      out.on('error', (error) => resolve({ error }))
      out.end(body)
    })
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of req) {
      size += (chunk as Buffer).length
      if (size > MAX_BODY_BYTES) return void res.writeHead(413).end('request body too large\n')
      chunks.push(chunk as Buffer)
    }
    const body = Buffer.concat(chunks)
    for (let tried = 0; tried < backends.length; tried++) {
      const index = next++ % backends.length
      if (Date.now() < downUntil[index]! && tried < backends.length - 1) continue
      const sent = await forward(index, req, body)
      if ('error' in sent) {
        downUntil[index] = Date.now() + DOWN_MS
        continue
      }
      answered[index]!++
      res.writeHead(sent.res.statusCode ?? 502, sent.res.headers)
      sent.res.pipe(res)
      return
    }
    res.writeHead(502, { 'content-type': 'text/plain' }).end('no edgetrace server of the fleet answers\n')
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(502).end()
      else res.destroy()
    })
  })
  await new Promise<void>((resolve) => server.listen(port, host, resolve))
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    answered,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
