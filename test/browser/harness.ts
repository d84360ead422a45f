import { connectEdgetraceWorker } from '../../src/browser/connectEdgetraceWorker.js'
import type { EdgetraceConfig } from '../../src/browser/createEdgetraceService.js'
import { registerEdgetraceServiceWorker } from '../../src/browser/registerEdgetraceServiceWorker.js'
import type { ServiceWorkerConfig } from '../../src/browser/serviceWorkerProtocol.js'

/**
 * A plain page (not a test) that the reload test opens, uses and reloads: it starts a fresh
 * edgetrace worker, sends the calls, and reports the answers with the worker's status around them.
 */
;(globalThis as { harness?: unknown }).harness = {
  /** `workerUrl`: the worker's script (the tests' global setup builds it: support.ts's env().bundles). */
  async run(config: EdgetraceConfig, calls: { method: string; params: unknown[] }[], workerUrl: string) {
    const worker = new Worker(workerUrl)
    const client = await connectEdgetraceWorker(worker, config)
    try {
      const before = await client.status()
      const answers = []
      for (const c of calls) answers.push(await client.call(c.method, c.params))
      const after = await client.status()
      return { started: client.started, before, after, answers }
    } finally {
      await client.close()
    }
  },
  /** Registers the edgetrace service worker from this page; answers one eth_chainId through it. */
  async registerServiceWorker(config: ServiceWorkerConfig, timeoutMs: number, scriptUrl: string) {
    const sw = await registerEdgetraceServiceWorker({
      scriptUrl,
      type: 'classic',
      config,
      timeoutMs,
    })
    const res = await fetch(sw.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    })
    return { url: sw.url, answer: await res.json(), unregister: () => sw.unregister() }
  },
}
