/// <reference lib="webworker" />
import { serveEdgetrace } from '../src/browser/serveEdgetrace.js'

/**
 * The edgetrace Web Worker: the whole daemon (every namespace, the same gating and limits as the
 * Node server) behind postMessage. The page starts it with `connectEdgetraceWorker(worker, config)`.
 * Extra origins allowed to talk to it (beyond its own, and the page that created it) may be given
 * as the worker's name: `new Worker(url, { type: 'module', name: JSON.stringify({ allowedOrigins }) })`.
 */
function allowedOrigins(): string[] | undefined {
  try {
    const parsed = JSON.parse(self.name || '{}') as { allowedOrigins?: unknown }
    return Array.isArray(parsed.allowedOrigins)
      ? parsed.allowedOrigins.filter((o): o is string => typeof o === 'string')
      : undefined
  } catch {
    return undefined
  }
}

const extra = allowedOrigins()
serveEdgetrace(self as never, {
  ...(extra ? { allowedOrigins: [self.location.origin, ...extra] } : {}),
  // Long ranges fan out to more workers of this script (the config's `workers`).
  workerScript: self.location.href,
})
