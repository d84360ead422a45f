import type { ProgressEvent } from '../types/progress.js'
import type { EdgetraceStatus } from './createEdgetraceService.js'
import { connectEdgetraceWorker } from './connectEdgetraceWorker.js'
import { createWebWorkerPool } from './createWebWorkerPool.js'
import {
  DEFAULT_SW_PATH,
  type ServiceWorkerCommand,
  type ServiceWorkerConfig,
  type ServiceWorkerMessage,
  type TracerRelayReply,
} from './serviceWorkerProtocol.js'

export type RegisterEdgetraceServiceWorkerParameters = {
  /** The service worker script (the package's `edgetrace/service-worker` bundle, served from your origin). */
  scriptUrl: string | URL
  config: ServiceWorkerConfig
  /** Registration scope (default "/": the script must then be served with `Service-Worker-Allowed: /` unless it sits at the root). */
  scope?: string
  /** "module" for an unbundled ES-module script (development), "classic" for the bundle (default). */
  type?: WorkerType
  /** How long to wait for the service worker to take control and start, ms (default 30 s). */
  timeoutMs?: number
  /**
   * Starts an edgetrace worker (the package's `edgetrace/worker` bundle, served from your origin),
   * e.g. `() => new Worker('/edgetrace.worker.js')`: given, this page hosts the service worker's
   * JavaScript tracers, each run on a hardened Web Worker it starts (a service worker cannot start
   * Web Workers). Without it, the service worker answers requests with tracer code with an error
   * saying so.
   */
  tracerWorker?: () => Worker
}

export type EdgetraceServiceWorker = {
  /** The absolute URL to POST JSON-RPC to (give it to any library that takes an HTTP URL). */
  readonly url: string
  readonly status: EdgetraceStatus
  readonly registration: ServiceWorkerRegistration
  /** Progress of this page's long requests. */
  onProgress(listener: (event: ProgressEvent) => void): () => void
  unregister(): Promise<boolean>
}

/**
 * Everything a page must do to get an HTTP JSON-RPC endpoint served by edgetrace in a service
 * worker: registers it, waits until it controls this page (it claims open pages at once), sends it
 * the configuration, waits for the daemon to start, and returns the endpoint's URL.
 */
export async function registerEdgetraceServiceWorker({
  scriptUrl,
  config,
  scope = '/',
  type = 'classic',
  timeoutMs = 30_000,
  tracerWorker,
}: RegisterEdgetraceServiceWorkerParameters): Promise<EdgetraceServiceWorker> {
  const container = navigator.serviceWorker
  if (!container)
    throw new Error('this page cannot use service workers (a secure context — https or localhost — is needed)')
  const registration = await container.register(scriptUrl, { scope, type })
  const deadline = <T>(p: Promise<T>, what: string) =>
    Promise.race([
      p,
      new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error(`edgetrace service worker: ${what} took longer than ${timeoutMs} ms`)),
          timeoutMs,
        ),
      ),
    ])

  // Controlled once the new worker is active and has claimed this page. A worker that was already
  // active when this page loaded without it (the registration was being removed by another page's
  // unregister(), which register() revives without a new activation; or a hard reload) claims
  // nothing by itself: it is asked to.
  await deadline(
    new Promise<void>((resolve) => {
      let asked: ServiceWorker | undefined
      const check = () => {
        const active = registration.active
        if (container.controller && active && container.controller.scriptURL === active.scriptURL) return resolve()
        if (active?.state === 'activated' && asked !== active) {
          asked = active
          active.postMessage({ type: 'edgetrace:claim' } satisfies ServiceWorkerCommand)
        }
      }
      container.addEventListener('controllerchange', check)
      registration.addEventListener('updatefound', () =>
        registration.installing?.addEventListener('statechange', check),
      )
      for (const w of [registration.installing, registration.waiting, registration.active])
        w?.addEventListener('statechange', check)
      check()
    }),
    'taking control of this page',
  )
  const controller = container.controller!

  const status = await deadline(
    new Promise<EdgetraceStatus>((resolve, reject) => {
      const onMessage = (event: MessageEvent<ServiceWorkerMessage>) => {
        if (event.data?.type === 'edgetrace:configured') resolve(event.data.status)
        else if (event.data?.type === 'edgetrace:error')
          reject(Object.assign(new Error(event.data.error.message), { code: event.data.error.code }))
        else return
        container.removeEventListener('message', onMessage)
      }
      container.addEventListener('message', onMessage)
      controller.postMessage({ type: 'edgetrace:configure', config } satisfies ServiceWorkerCommand)
    }),
    'starting',
  )

  const listeners = new Set<(event: ProgressEvent) => void>()
  const tracers = tracerWorker ? hostTracers(tracerWorker, config) : undefined
  container.addEventListener('message', (event: MessageEvent<ServiceWorkerMessage>) => {
    if (event.data?.type === 'edgetrace:progress') for (const l of listeners) l(event.data.progress)
    else if (event.data?.type === 'edgetrace:run-tracer' && tracers && event.ports[0])
      tracers.run(event.data.text, event.ports[0])
  })
  if (tracers) controller.postMessage({ type: 'edgetrace:host-tracers' } satisfies ServiceWorkerCommand)
  return {
    url: new URL(config.path ?? DEFAULT_SW_PATH, location.origin).href,
    status,
    registration,
    onProgress(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    async unregister() {
      await tracers?.close()
      return registration.unregister()
    },
  }
}

/**
 * This page's side of the service worker's JavaScript tracers: each relayed request runs whole on a
 * Web Worker of a small pool, whose daemon (same upstream, same IndexedDB cache) hardens its realm
 * first; the answer goes back on the request's port, and an abort from the service worker (the
 * tracer's timeout) ends that worker — the next request gets a fresh one.
 */
function hostTracers(startWorker: () => Worker, config: ServiceWorkerConfig) {
  const { path: _path, allowedOrigins: _origins, maxBodyBytes: _body, ...daemon } = config
  const pool = createWebWorkerPool({
    size: Math.min(2, navigator.hardwareConcurrency || 1),
    start: () => connectEdgetraceWorker(startWorker(), { ...daemon, workers: 0, harden: true }),
  })
  return {
    run(text: string, port: MessagePort) {
      const abort = new AbortController()
      port.onmessage = (event) => {
        if ((event.data as { abort?: boolean })?.abort) abort.abort()
      }
      const answer = (reply: TracerRelayReply) => {
        port.postMessage(reply)
        port.close()
      }
      pool.run(text, abort.signal).then(
        (out) => answer({ text: out }),
        (err: unknown) => {
          if (!abort.signal.aborted)
            answer({ error: { code: -32603, message: err instanceof Error ? err.message : String(err) } })
        },
      )
    },
    close: () => pool.close(),
  }
}
