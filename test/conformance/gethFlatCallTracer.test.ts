import { describe, expect, it } from 'vitest'
import { createCallTraceRecorder } from '../../src/tracing/recorder/createCallTraceRecorder.js'
import { toFlatCallFrames } from '../../src/tracing/render/geth/toFlatCallFrames.js'
import { firstDifference } from '../src/firstDifference.js'
import { type Json, normalizeFlatTraces } from '../src/tracetestCompare.js'
import { loadCase, loadManifest, runTracetestCase } from '../src/runTracetestCase.js'
import { useWasmCounters } from '../src/useWasmCounters.js'

// geth's flatCallTracer corpus, compared as flat_calltrace_test.go does (test/src/tracetestCompare.ts).

const manifest = loadManifest('geth-tracetest').filter((m) => m.tracer === 'flatCallTracer')

useWasmCounters(import.meta.filename, { expectFrames: true })

describe('geth flatCallTracer corpus', () => {
  it.each(manifest.map((m) => [m.file, m] as const))('%s', async (file, m) => {
    const c = loadCase('geth-tracetest', file)
    const config = {
      includePrecompiles: c.tracerConfig?.includePrecompiles === true,
      convertParityErrors: c.tracerConfig?.convertParityErrors === true,
    }
    const recorder = createCallTraceRecorder({ logs: false, steps: false })
    await runTracetestCase(c, m, recorder.hooks)
    const ours = toFlatCallFrames(recorder.arena, config, {
      blockNumber: BigInt(c.context.number),
      transactionPosition: 0,
    })
    const expected = normalizeFlatTraces(c.result as Json[])
    const actual = normalizeFlatTraces(ours as unknown as Json[])
    expect(firstDifference(actual, expected)).toBeUndefined()
  })
})
