import type { ProgressEvent } from '../types/progress.js'
import type { EdgetraceConfig, EdgetraceStatus } from './createEdgetraceService.js'

/** The service worker's settings: the daemon's, and where it answers. */
export type ServiceWorkerConfig = EdgetraceConfig & {
  /** The same-origin path whose POSTs are JSON-RPC (default "/rpc"). */
  path?: string
  /** Origins whose clients may configure it (default: its own). */
  allowedOrigins?: readonly string[]
  /** Largest request body, bytes (the Node server's 5 MiB by default). */
  maxBodyBytes?: number
}

/** Page → service worker. */
export type ServiceWorkerCommand =
  | { type: 'edgetrace:configure'; config: ServiceWorkerConfig }
  | { type: 'edgetrace:status' }
  /** Take control of the open pages now (clients.claim): for a page loaded while no worker controlled it. */
  | { type: 'edgetrace:claim' }
  /** This page runs JavaScript tracers for the service worker (it cannot start the workers they need). */
  | { type: 'edgetrace:host-tracers' }

/** Service worker → page (the answer to a command, or a request's progress). */
export type ServiceWorkerMessage =
  | { type: 'edgetrace:configured'; status: EdgetraceStatus }
  | { type: 'edgetrace:error'; error: { code: number; message: string } }
  | { type: 'edgetrace:status'; status: EdgetraceStatus | undefined }
  | { type: 'edgetrace:progress'; progress: ProgressEvent }
  /** Run this request (one with a JavaScript tracer) and answer on the port sent with it (TracerRelayReply). */
  | { type: 'edgetrace:run-tracer'; text: string }

/** A hosting page's answer to edgetrace:run-tracer, on its port (the service worker may post `{abort: true}` there). */
export type TracerRelayReply = { text: string } | { error: { code: number; message: string } }

export const DEFAULT_SW_PATH = '/rpc'
