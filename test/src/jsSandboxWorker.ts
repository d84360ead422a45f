// A hardened worker thread for the sandbox tests: evaluates a tracer source in its Compartment and
// calls one of its methods, answering the result or the error's text.
import '../../src/tracing/js/hardenRealm.js'
import { parentPort } from 'node:worker_threads'
import { evaluateJsTracer } from '../../src/tracing/js/evaluateJsTracer.js'

parentPort!.on('message', ({ source, method }: { source: string; method: string }) => {
  try {
    const tracer = evaluateJsTracer(source, { probe: () => 'host function' }) as Record<string, unknown>
    const value = (tracer[method] as () => unknown).call(tracer)
    parentPort!.postMessage({ value: value === undefined ? 'undefined' : JSON.stringify(value) })
  } catch (err) {
    parentPort!.postMessage({ error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) })
  }
})
