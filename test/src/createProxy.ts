import { type IncomingMessage, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export type ProxyCall = { method: string; params: unknown[] }

/** One JSON-RPC call as the proxy saw it: `index` counts calls (1-based) over the proxy's life, `request` HTTP requests. */
export type ProxyLoggedCall = ProxyCall & { id: unknown; index: number; request: number }

/** A JSON-RPC error object, as an upstream puts it on the wire. */
export type ProxyRpcError = { code: number; message: string; data?: unknown }

export type ProxyHooks = {
  /** Latency added to every HTTP request (simulates a remote node). */
  delayMs?: number
  /**
   * Decide per request: answer it yourself, drop the connection (socket destroyed), hang (never
   * answer; the connection stays open until the client gives up or the proxy stops), forward it but
   * return only the first half of the node's answer (truncated JSON, status 200), or (undefined)
   * forward it. `calls` are the JSON-RPC calls the request carries.
   */
  onRequest?: (ctx: {
    body: unknown
    count: number
    calls: readonly ProxyLoggedCall[]
  }) => undefined | 'drop' | 'hang' | 'truncate' | { status: number; headers?: Record<string, string>; body?: string }
  /**
   * Per JSON-RPC call: an error object to answer that call with instead of forwarding it (inside a
   * batch, only that call; the others are forwarded), or undefined.
   */
  callError?: (call: ProxyLoggedCall) => ProxyRpcError | undefined
  /** Rewrites a successful JSON-RPC result before it is returned (single and batched calls). */
  transform?: (call: ProxyCall, result: unknown) => unknown
  /** Methods the proxied node pretends not to have (answered -32601, also inside batches). */
  refuseMethods?: string[]
  /** Answer every batch with HTTP 400, as some providers do. */
  rejectBatches?: boolean
}

export type Proxy = {
  url: string
  /** HTTP requests received. */
  readonly requests: number
  /** JSON-RPC calls received, by method. */
  readonly calls: Map<string, number>
  /** Every JSON-RPC call received, in order. */
  readonly log: readonly ProxyLoggedCall[]
  /** Requests being held open by a 'hang' decision. */
  readonly hanging: number
  hooks: ProxyHooks
  stop(): Promise<void>
}

/**
 * A real loopback HTTP proxy in front of a real node (anvil): adds latency, injects faults
 * (status codes, dropped connections, hangs, truncated bodies, refused batches, JSON-RPC errors for
 * single calls) and tampers with answers. Tests use it to show what edgetrace does with a slow,
 * flaky or lying upstream; it never invents an answer itself.
 */
export async function createProxy(target: string, hooks: ProxyHooks = {}): Promise<Proxy> {
  let requests = 0
  const calls = new Map<string, number>()
  const log: ProxyLoggedCall[] = []
  const hung = new Set<ServerResponse>()
  const proxy: Proxy = {
    url: '',
    get requests() {
      return requests
    },
    calls,
    log,
    get hanging() {
      return hung.size
    },
    hooks,
    stop: async () => {},
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    const count = ++requests
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      body = undefined
    }
    // By position in the request (undefined where an entry is no call).
    const positions: (ProxyLoggedCall | undefined)[] = []
    for (const c of Array.isArray(body) ? body : [body]) {
      const call = c as { id?: unknown; method?: string; params?: unknown[] } | undefined
      const method = call?.method
      if (!method) {
        positions.push(undefined)
        continue
      }
      calls.set(method, (calls.get(method) ?? 0) + 1)
      const logged = { id: call.id, method, params: call.params ?? [], index: log.length + 1, request: count }
      log.push(logged)
      positions.push(logged)
    }
    const carried = positions.filter((c): c is ProxyLoggedCall => c !== undefined)
    const { delayMs, onRequest, transform, rejectBatches, callError } = proxy.hooks
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs))
    const decision = onRequest?.({ body, count, calls: carried })
    if (decision === 'drop') {
      req.socket.destroy()
      return
    }
    if (decision === 'hang') {
      hung.add(res)
      res.once('close', () => hung.delete(res))
      return
    }
    if (decision && decision !== 'truncate') {
      res
        .writeHead(decision.status, { 'content-type': 'application/json', ...decision.headers })
        .end(decision.body ?? '')
      return
    }
    if (rejectBatches && Array.isArray(body)) {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"batch requests are not supported"}')
      return
    }
    let forwardText = text
    const refused: unknown[] = []
    if ((proxy.hooks.refuseMethods || callError) && body !== undefined) {
      const list = (Array.isArray(body) ? body : [body]) as { id: unknown; method: string }[]
      const keep = list.filter((c, i) => {
        const injected = positions[i] ? callError?.(positions[i]!) : undefined
        if (injected) {
          refused.push({ jsonrpc: '2.0', id: c.id, error: injected })
          return false
        }
        if (!proxy.hooks.refuseMethods?.includes(c.method)) return true
        refused.push({
          jsonrpc: '2.0',
          id: c.id,
          error: { code: -32601, message: `the method ${c.method} does not exist/is not available` },
        })
        return false
      })
      if (keep.length === 0) {
        const reply = Array.isArray(body) ? refused : refused[0]
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply))
        return
      }
      forwardText = JSON.stringify(Array.isArray(body) ? keep : keep[0])
    }
    const upstream = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: forwardText,
    })
    let out = await upstream.text()
    if (refused.length > 0) out = JSON.stringify([...(JSON.parse(out) as unknown[]), ...refused])
    if (transform && body !== undefined) {
      const reply = JSON.parse(out) as unknown
      const requestsById = new Map<unknown, ProxyCall>()
      for (const c of Array.isArray(body) ? body : [body]) {
        const call = c as { id: unknown; method: string; params?: unknown[] }
        requestsById.set(call.id, { method: call.method, params: call.params ?? [] })
      }
      const rewrite = (r: { id: unknown; result?: unknown }) => {
        const call = requestsById.get(r.id)
        return call && 'result' in r ? { ...r, result: transform(call, r.result) } : r
      }
      out = JSON.stringify(Array.isArray(reply) ? reply.map(rewrite) : rewrite(reply as { id: unknown }))
    }
    if (decision === 'truncate') out = out.slice(0, Math.floor(out.length / 2))
    res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(out)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  proxy.stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return proxy
}
