/// <reference lib="webworker" />
import { createStore, get, set } from 'idb-keyval'
import { type EdgetraceService, createEdgetraceService } from '../src/browser/createEdgetraceService.js'
import {
  DEFAULT_SW_PATH,
  type ServiceWorkerCommand,
  type ServiceWorkerConfig,
  type ServiceWorkerMessage,
} from '../src/browser/serviceWorkerProtocol.js'
import { createTracerRelay } from '../src/browser/createTracerRelay.js'
import { toRpcError } from '../src/errors/toRpcError.js'
import type { ProgressEvent } from '../src/types/progress.js'

/**
 * The edgetrace service worker: a POST of JSON-RPC to the configured path (default /rpc) from any
 * page it controls — or from any library there that only takes an HTTP URL — is answered by the
 * daemon inside it, with the same batching, errors, limits and namespace gating as the Node
 * server; big results stream. The page configures it once (registerEdgetraceServiceWorker); the
 * configuration is kept in IndexedDB, so a service worker the browser restarted serves at once.
 */
declare const self: ServiceWorkerGlobalScope

const settings = createStore('edgetrace-service-worker', 'settings')
let config: ServiceWorkerConfig | undefined
let service: Promise<EdgetraceService> | undefined
let loaded: Promise<void> | undefined
const tracers = createTracerRelay({ get: (id) => self.clients.get(id) as never })

function loadConfig(): Promise<void> {
  loaded ??= get<ServiceWorkerConfig>('config', settings)
    .then((kept) => {
      config ??= kept
    })
    .catch(() => undefined)
  return loaded
}

function serviceFor(next: ServiceWorkerConfig): Promise<EdgetraceService> {
  const previous = service
  service = (async () => {
    await (await previous?.catch(() => undefined))?.close()
    const started = await createEdgetraceService(next)
    // JavaScript tracers: relayed to a page that hosts them (this worker cannot start their workers).
    started.daemon.engine.jsTracerWorkers = tracers
    return started
  })()
  service.catch(() => {
    service = undefined
  })
  return service
}

self.addEventListener('install', () => {
  void self.skipWaiting()
})
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim())
})

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const allowed = config?.allowedOrigins ?? [self.location.origin]
  if (!allowed.includes(event.origin) && event.origin !== self.location.origin) return
  const command = event.data as ServiceWorkerCommand
  const reply = (message: ServiceWorkerMessage) => (event.source as Client | null)?.postMessage(message)
  if (command?.type === 'edgetrace:configure') {
    event.waitUntil(
      (async () => {
        // Only the service worker's own origin may change what it serves.
        if (event.origin !== self.location.origin)
          return reply({
            type: 'edgetrace:error',
            error: { code: -32600, message: `origin ${event.origin} may not configure edgetrace` },
          })
        try {
          const started = await serviceFor(command.config)
          // Kept only once it started: a bad configuration never outlives this message.
          config = command.config
          await set('config', config, settings)
          reply({ type: 'edgetrace:configured', status: started.status() })
        } catch (err) {
          reply({ type: 'edgetrace:error', error: toRpcError(err) })
        }
      })(),
    )
  } else if (command?.type === 'edgetrace:host-tracers') {
    // Same-origin pages only: a tracer's request (its code, its answer) goes to the page that hosts it.
    const source = event.source as Client | null
    if (event.origin === self.location.origin && source) tracers.addHost(source.id)
  } else if (command?.type === 'edgetrace:claim') {
    // Same-origin pages only: claim() can only take pages of this origin in scope anyway.
    if (event.origin === self.location.origin) event.waitUntil(self.clients.claim())
  } else if (command?.type === 'edgetrace:status') {
    event.waitUntil(
      (async () => reply({ type: 'edgetrace:status', status: (await service?.catch(() => undefined))?.status() }))(),
    )
  }
})

function jsonError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}

async function answer(request: Request, clientId: string): Promise<Response> {
  await loadConfig()
  if (!config)
    return jsonError(
      503,
      -32603,
      'edgetrace is not configured: call registerEdgetraceServiceWorker(...) from a page first',
    )
  if (request.method === 'GET')
    return new Response('{"status":"ok"}', { headers: { 'content-type': 'application/json' } })
  if (request.method !== 'POST')
    return new Response('method not allowed\n', { status: 405, headers: { allow: 'POST, GET' } })
  const max = config.maxBodyBytes ?? 5 * 1024 * 1024
  const body = await request.arrayBuffer()
  if (body.byteLength > max)
    return new Response(`content length too large (${body.byteLength}>${max})\n`, {
      status: 413,
      headers: { 'content-type': 'text/plain' },
    })
  let daemon: EdgetraceService
  try {
    daemon = await (service ?? serviceFor(config))
  } catch (err) {
    return jsonError(503, toRpcError(err).code, toRpcError(err).message)
  }
  const client = clientId ? await self.clients.get(clientId) : undefined
  const onProgress = client
    ? (progress: ProgressEvent) =>
        client.postMessage({ type: 'edgetrace:progress', progress } satisfies ServiceWorkerMessage)
    : undefined
  const text = new TextDecoder().decode(body)
  const encoder = new TextEncoder()
  // The response streams: big traces leave in chunks while they are computed.
  let owedResolve: (owed: boolean) => void
  const owed = new Promise<boolean>((r) => (owedResolve = r))
  let controller!: ReadableStreamDefaultController<Uint8Array>
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) })
  let started = false
  const done = daemon
    .requestStreaming(
      text,
      (chunk) => {
        if (!started) {
          started = true
          owedResolve(true)
        }
        controller.enqueue(encoder.encode(chunk))
      },
      onProgress,
    )
    .then(
      (wasOwed) => {
        owedResolve(wasOwed)
        controller.close()
      },
      (err) => {
        owedResolve(true)
        controller.error(err)
      },
    )
  if (!(await owed)) {
    await done
    return new Response('', { status: 200, headers: { 'content-type': 'application/json', 'content-length': '0' } })
  }
  return new Response(stream, { status: 200, headers: { 'content-type': 'application/json' } })
}

void loadConfig()

self.addEventListener('fetch', (event: FetchEvent) => {
  const url = new URL(event.request.url)
  if (url.origin !== self.location.origin) return
  if (config) {
    if (url.pathname === (config.path ?? DEFAULT_SW_PATH)) event.respondWith(answer(event.request, event.clientId))
    return
  }
  // Restarted and the kept configuration not read yet: a POST (or the default path) waits for it.
  if (event.request.method !== 'POST' && url.pathname !== DEFAULT_SW_PATH) return
  event.respondWith(
    (async () => {
      await loadConfig()
      if (url.pathname !== configuredPath()) return fetch(event.request)
      return answer(event.request, event.clientId)
    })(),
  )
})

function configuredPath(): string {
  return config?.path ?? DEFAULT_SW_PATH
}
