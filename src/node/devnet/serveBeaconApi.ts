import { type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A Beacon API answer: its HTTP status and JSON body. */
export type BeaconApiAnswer = { status: number; body: unknown }

export type ServedBeaconApi = { url: string; server: Server; close(): Promise<void> }

/**
 * Serves `answer` as a Beacon API on 127.0.0.1 (GET only; JSON; any origin may read it, since a page's
 * worker calls it too). `before` runs ahead of each answer (a beacon chain following an execution
 * node catches up there); when it fails, the answer is a 503 naming why.
 */
export async function serveBeaconApi({
  answer,
  before,
  port = 0,
}: {
  answer: (url: URL) => BeaconApiAnswer
  before?: (() => Promise<void>) | undefined
  port?: number | undefined
}): Promise<ServedBeaconApi> {
  const server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*')
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body)
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text)
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-methods': 'GET', 'access-control-allow-headers': 'accept' }).end()
      return
    }
    if (req.method !== 'GET') return send(405, { code: 405, message: `${req.method} not allowed: GET only` })
    const url = new URL(req.url ?? '/', 'http://beacon')
    ;(before ? before() : Promise.resolve()).then(
      () => {
        try {
          const { status, body } = answer(url)
          send(status, body)
        } catch (err) {
          send(500, { code: 500, message: (err as Error).message })
        }
      },
      (err: unknown) =>
        send(503, { code: 503, message: `not in step with its execution chain: ${(err as Error).message}` }),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
