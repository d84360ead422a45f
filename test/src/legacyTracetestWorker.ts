// A hardened worker thread for geth's legacy JavaScript tracetest cases: runs one case with the
// built-in JavaScript tracer it names (callTracerLegacy, prestateTracerLegacy), on the case's
// pre-state, and answers the tracer's result (or its error's text).
import '../../src/tracing/js/hardenRealm.js'
import { parentPort } from 'node:worker_threads'
import type { Engine } from '../../src/exec/createEngine.js'
import { runWithJsState } from '../../src/rpc/debug/runWithJsState.js'
import { parseTraceConfig } from '../../src/rpc/parseTraceConfig.js'
import { startTxTrace } from '../../src/tracing/startTxTrace.js'
import { createAllocStateSource } from './createAllocStateSource.js'
import { conformanceWasmState } from './conformanceEngine.js'
import { loadCase, loadManifest, runTracetestCase } from './runTracetestCase.js'

const manifest = loadManifest('geth-tracetest')

parentPort!.on('message', async ({ file }: { file: string }) => {
  try {
    const m = manifest.find((entry) => entry.file === file)!
    const c = loadCase('geth-tracetest', file)
    const plan = parseTraceConfig({ tracer: m.tracer, tracerConfig: c.tracerConfig ?? undefined })
    const source = createAllocStateSource(c.genesis.alloc)
    let value: unknown
    let gasUsed = 0n
    // As the daemon runs a JavaScript tracer: again once what its db missed is loaded.
    await runWithJsState({ source } as unknown as Engine, plan, async () => {
      const session = startTxTrace(plan, { blockNumber: BigInt(c.context.number), transactionPosition: 0 })
      const ran = await runTracetestCase(c, m, session.hooks, { bind: session.bind, source })
      value = await session.finish(ran.result, ran.state)
      gasUsed = ran.result.totalGasSpent
      return { header: ran.header }
    })
    // The worker's wasm counters so far (the file reports the last ones).
    const wasm = conformanceWasmState()?.counters
    parentPort!.postMessage({ value: JSON.stringify(value), gasUsed: gasUsed.toString(), wasm })
  } catch (err) {
    parentPort!.postMessage({ error: err instanceof Error ? `${err.name}: ${err.message}\n${err.stack}` : String(err) })
  }
})
