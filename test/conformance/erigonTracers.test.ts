import { describe, expect, it } from 'vitest'
import { createCallTraceRecorder } from '../../src/tracing/recorder/createCallTraceRecorder.js'
import { toCallFrame } from '../../src/tracing/render/geth/toCallFrame.js'
import { firstDifference } from '../src/firstDifference.js'
import { loadCase, loadManifest, runTracetestCase } from '../src/runTracetestCase.js'

// Erigon's callTracer cases of one mainnet transaction (16494085, index 277): Erigon's callTracer
// takes an extra `includePrecompiles` option; by default, like geth, it lists precompile frames.

const manifest = loadManifest('erigon').filter((m) => m.tracer === 'callTracer')

describe('Erigon callTracer cases', () => {
  it.each(manifest.map((m) => [m.file, m] as const))('%s', async (file, m) => {
    const c = loadCase('erigon', file)
    const recorder = createCallTraceRecorder({ logs: false, steps: false })
    await runTracetestCase(c, m, recorder.hooks)
    const includePrecompiles = c.tracerConfig?.includePrecompiles !== false
    const ours = toCallFrame(recorder.arena, { onlyTopCall: false, withLog: false, includePrecompiles })
    expect(firstDifference(ours, c.result)).toBeUndefined()
  })
})
