import { connectEdgetraceWorker } from '../../src/browser/connectEdgetraceWorker.js'
import type { EdgetraceConfig } from '../../src/browser/createEdgetraceService.js'

/**
 * A plain page (not a test) that the reload test opens, uses and reloads: it starts a fresh
 * edgetrace worker, sends the calls, and reports the answers with the worker's status around them.
 */
;(globalThis as { harness?: unknown }).harness = {
  async run(config: EdgetraceConfig, calls: { method: string; params: unknown[] }[]) {
    const worker = new Worker(new URL('../../worker/edgetrace.worker.ts', import.meta.url), { type: 'module' })
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
}
