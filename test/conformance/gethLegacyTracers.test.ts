import { Worker } from 'node:worker_threads'
import type { WasmEngineCounters } from '../../src/wasm/createWasmEngine.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { firstDifference } from '../src/firstDifference.js'
import { loadCase, loadManifest } from '../src/runTracetestCase.js'
import { type Frame, canonicalCallFrame, sortKeys } from '../src/tracetestCompare.js'
import { useWasmCounters } from '../src/useWasmCounters.js'

// geth's legacy JavaScript tracer cases (call_tracer_legacy, prestate_tracer_legacy): geth's tracers
// there are its own JavaScript sources (LGPL); edgetrace's, written to the same API
// (src/tracing/js/builtinJsTracers.ts), run in a hardened thread as the daemon runs them, and are
// compared as geth's harness compares them (the call tree through its callTrace struct, the
// prestate as exact JSON).

const legacy = loadManifest('geth-tracetest').filter(
  (m) => m.file.startsWith('call_tracer_legacy/') || m.file.startsWith('prestate_tracer_legacy/'),
)

// JavaScript tracers observe every step: ethereumjs runs them on either engine (a counted fallback).
let workerCounters: WasmEngineCounters | undefined
useWasmCounters(import.meta.filename, { expectFrames: false }).track(() => workerCounters)

describe('geth legacy JavaScript tracer corpus', () => {
  let worker: Worker
  beforeAll(() => {
    const script = new URL('../src/legacyTracetestWorker.ts', import.meta.url)
    const code = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(script.href)}) })`
    worker = new Worker(code, { eval: true })
  })
  afterAll(() => worker?.terminate())
  const run = (file: string) =>
    new Promise<{ value?: string; gasUsed?: string; error?: string }>((resolve, reject) => {
      worker.once(
        'message',
        (answer: { value?: string; gasUsed?: string; error?: string; wasm?: WasmEngineCounters }) => {
          workerCounters = answer.wasm ?? workerCounters
          resolve(answer)
        },
      )
      worker.once('error', reject)
      worker.postMessage({ file })
    })

  it.each(legacy.map((m) => [m.file, m] as const))('%s', async (file, m) => {
    const c = loadCase('geth-tracetest', file)
    const answer = await run(file)
    expect(answer.error).toBeUndefined()
    const ours = JSON.parse(answer.value!)
    if (m.tracer === 'callTracerLegacy') {
      const got = canonicalCallFrame(ours as Frame)
      const want = canonicalCallFrame(c.result as Frame)
      expect(firstDifference(got, want)).toBeUndefined()
      expect(JSON.stringify(got)).toBe(JSON.stringify(want))
      expect(BigInt((c.result as Frame).gasUsed)).toBe(BigInt(answer.gasUsed!))
    } else {
      expect(JSON.stringify(sortKeys(ours))).toBe(JSON.stringify(sortKeys(c.result)))
    }
  })
})
