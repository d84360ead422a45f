import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'

// A tracer is code from the network: in its Compartment, in a hardened thread, it reaches nothing of
// the host; an endless loop or a memory bomb ends with its thread, never the daemon's.
const script = new URL('../../../test/src/jsSandboxWorker.ts', import.meta.url)

function startSandbox(resourceLimits?: { maxOldGenerationSizeMb: number }) {
  // The TypeScript entry loaded through tsx's loader, registered in the new thread.
  const code = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(script.href)}) })`
  return new Worker(code, { eval: true, ...(resourceLimits ? { resourceLimits } : {}) })
}

async function run(worker: Worker, source: string, method = 'result', timeoutMs = 10_000) {
  return new Promise<{ value?: string; error?: string; exited?: string }>((resolve) => {
    const timer = setTimeout(() => {
      void worker.terminate()
      resolve({ exited: 'terminated after its deadline' })
    }, timeoutMs)
    worker.once('message', (m) => {
      clearTimeout(timer)
      resolve(m)
    })
    worker.once('error', (err) => {
      clearTimeout(timer)
      resolve({ exited: `${(err as { code?: string }).code ?? err.name}` })
    })
    worker.postMessage({ source, method })
  })
}

const tracer = (body: string) => `{ result: function() { ${body} }, fault: function() {} }`

describe('evaluateJsTracer (SES Compartment in a hardened thread)', () => {
  it('refuses sources that make no tracer, with geth’s words', async () => {
    const worker = startSandbox()
    try {
      expect((await run(worker, '{ fault: function() {} }')).error).toBe(
        'JsTracerError: trace object must expose a function result()',
      )
      expect((await run(worker, '{ result: function() {} }')).error).toBe(
        'JsTracerError: trace object must expose a function fault()',
      )
      expect((await run(worker, '{ result: function() {}, fault: function() {}, enter: function() {} }')).error).toBe(
        'JsTracerError: trace object must expose either both or none of enter() and exit()',
      )
      expect((await run(worker, '{ result: }')).error).toMatch(/^SyntaxError/)
    } finally {
      await worker.terminate()
    }
  }, 60_000)

  it('sees its globals and nothing of the host: no process, require, fetch, timers, import(), constructor escapes or prototype poisoning', async () => {
    const worker = startSandbox()
    try {
      expect((await run(worker, tracer('return probe()'))).value).toBe('"host function"')
      for (const probe of [
        'typeof process',
        'typeof require',
        'typeof fetch',
        'typeof globalThis.fetch',
        'typeof setTimeout',
        'typeof queueMicrotask',
        'typeof WebAssembly',
        'Function("return typeof process")()',
        '(function () { return typeof this })()',
      ]) {
        const answer = await run(worker, tracer(`return ${probe}`))
        expect(answer.value, probe).toMatch(/^"(undefined)"$/)
      }
      expect((await run(worker, tracer('return ({}).constructor.constructor("return process")()'))).error).toMatch(
        /TypeError/,
      )
      expect((await run(worker, tracer('Object.prototype.polluted = 1; return 1'))).error).toMatch(/TypeError/)
      expect((await run(worker, tracer('probe.x = 1; return 1'))).error).toMatch(/TypeError/)
      expect((await run(worker, tracer('return Date.now()'))).error).toMatch(/secure mode/)
      expect(
        (await run(worker, `{ result: function() { return import("node:fs") }, fault: function() {} }`)).error,
      ).toMatch(/SES_IMPORT_REJECTED/)
      // The thread is unharmed: its own intrinsics unpoisoned, and it answers the next tracer.
      expect((await run(worker, tracer('return ({}).polluted'))).value).toBe('undefined')
    } finally {
      await worker.terminate()
    }
  }, 60_000)

  it('an endless loop is stopped by ending its thread; a memory bomb ends its thread by the memory limit', async () => {
    const looping = startSandbox()
    const started = Date.now()
    expect(await run(looping, tracer('for (;;) {}'), 'result', 1000)).toEqual({
      exited: 'terminated after its deadline',
    })
    expect(Date.now() - started).toBeLessThan(5000)
    const bomb = startSandbox({ maxOldGenerationSizeMb: 64 })
    expect(await run(bomb, tracer('var a = []; for (;;) a.push(new Array(100000).fill(1))'), 'result', 30_000)).toEqual(
      { exited: 'ERR_WORKER_OUT_OF_MEMORY' },
    )
  }, 60_000)
})
