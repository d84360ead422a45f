/// <reference lib="dom" />
// The bench page (bench/browser.ts builds and serves it): starts edgetrace workers from the built
// bundle and times calls with performance.now(), inside the page. The import below is the type
// checker's view; the bench's page build resolves it to the built library, dist/browser/index.js —
// what an app importing 'edgetrace/browser' with Vite gets.
import {
  type EdgetraceClient,
  type EdgetraceConfig,
  type EdgetraceServiceWorker,
  connectEdgetraceWorker,
  registerEdgetraceServiceWorker,
} from '../../src/browser/index.js'

/** Where the static server serves dist/browser/edgetrace.worker.js: a classic script (IIFE). */
const WORKER_URL = '/edgetrace.worker.js'
/** … and dist/browser/edgetrace.sw.js, registered as a classic service worker. */
const SERVICE_WORKER_URL = '/edgetrace.sw.js'
let serviceWorker: EdgetraceServiceWorker | undefined

const clients = new Map<string, EdgetraceClient>()

function client(id: string): EdgetraceClient {
  const c = clients.get(id)
  if (!c) throw new Error(`no worker ${id}`)
  return c
}

export type TimedCall = {
  ms: number
  /** The response's result as JSON text, or undefined with `error`. */
  result?: string
  error?: { code: number; message: string }
  /** The worker's own count of upstream requests after the call. */
  upstreamRequests: number
}

const bench = {
  /** Starts a worker (`new Worker(url)`, no type: 'module') and edgetrace in it; the start is timed. */
  async start(
    id: string,
    config: EdgetraceConfig,
  ): Promise<{ ms: number; upstreamRequests: number; startedOffline: boolean }> {
    const t = performance.now()
    const c = await connectEdgetraceWorker(new Worker(WORKER_URL), config)
    const ms = performance.now() - t
    clients.set(id, c)
    return { ms, upstreamRequests: c.started.upstreamRequests, startedOffline: c.started.startedOffline }
  },
  /** One call, timed from the page: postMessage to the worker and back included. */
  async call(id: string, method: string, params: unknown[]): Promise<TimedCall> {
    const c = client(id)
    const t = performance.now()
    const res = await c.call(method, params)
    const ms = performance.now() - t
    const status = await c.status()
    const out: TimedCall = { ms, upstreamRequests: status?.upstreamRequests ?? -1 }
    if ('error' in res && res.error) out.error = { code: res.error.code, message: res.error.message }
    else out.result = JSON.stringify((res as { result?: unknown }).result)
    return out
  },
  /** Registers the service worker (classic), or reconfigures it: a fresh daemon on `config`; timed. */
  async startServiceWorker(config: EdgetraceConfig): Promise<{ ms: number; upstreamRequests: number }> {
    const t = performance.now()
    serviceWorker = await registerEdgetraceServiceWorker({ scriptUrl: SERVICE_WORKER_URL, config })
    return { ms: performance.now() - t, upstreamRequests: serviceWorker.status.upstreamRequests }
  },
  /** One call POSTed to the service worker's endpoint, timed from the page (the body read and parsed). */
  async serviceWorkerCall(method: string, params: unknown[]): Promise<TimedCall> {
    if (!serviceWorker) throw new Error('no service worker')
    const t = performance.now()
    const res = await fetch(serviceWorker.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } }
    const ms = performance.now() - t
    const out: TimedCall = { ms, upstreamRequests: -1 }
    if (body.error) out.error = { code: body.error.code, message: body.error.message }
    else out.result = JSON.stringify(body.result)
    return out
  },
  /** Waits until the worker's IndexedDB cache is written. */
  flush: (id: string) => client(id).flush(),
  /** Stops the daemon and terminates the worker. */
  async close(id: string) {
    await client(id).close()
    clients.delete(id)
  },
}

export type EdgetraceBench = typeof bench
;(globalThis as unknown as { edgetraceBench: EdgetraceBench }).edgetraceBench = bench
