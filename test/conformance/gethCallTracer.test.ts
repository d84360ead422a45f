import { describe, expect, it } from 'vitest'
import { createCallTraceRecorder } from '../../src/tracing/recorder/createCallTraceRecorder.js'
import { toCallFrame } from '../../src/tracing/render/geth/toCallFrame.js'
import { firstDifference } from '../src/firstDifference.js'
import { type Frame, canonicalCallFrame } from '../src/tracetestCompare.js'
import { loadCase, loadManifest, runTracetestCase } from '../src/runTracetestCase.js'
import { useWasmCounters } from '../src/useWasmCounters.js'

// geth's callTracer corpus, compared as geth's own harness does (test/src/tracetestCompare.ts).

const manifest = loadManifest('geth-tracetest').filter(
  (m) => m.tracer === 'callTracer' && (m.file.startsWith('call_tracer/') || m.file.startsWith('call_tracer_withLog/')),
)

useWasmCounters(import.meta.filename, { expectFrames: true })

describe('geth callTracer corpus', () => {
  it.each(manifest.map((m) => [m.file, m] as const))('%s', async (file, m) => {
    const c = loadCase('geth-tracetest', file)
    const config = { onlyTopCall: c.tracerConfig?.onlyTopCall === true, withLog: c.tracerConfig?.withLog === true }
    const recorder = createCallTraceRecorder({ logs: config.withLog, steps: false })
    const { result } = await runTracetestCase(c, m, recorder.hooks)
    const ours = toCallFrame(recorder.arena, config)
    const expected = canonicalCallFrame(c.result as Frame)
    expect(firstDifference(ours, expected)).toBeUndefined()
    expect(JSON.stringify(ours)).toBe(JSON.stringify(expected))
    expect(BigInt((c.result as Frame).gasUsed)).toBe(result.totalGasSpent)
  })
})
