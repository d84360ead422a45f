import { describe, expect, it } from 'vitest'
import { createCallTraceRecorder } from '../../src/tracing/recorder/createCallTraceRecorder.js'
import { toPrestate } from '../../src/tracing/render/geth/toPrestate.js'
import { collectStateAccess } from '../../src/tracing/state/collectStateAccess.js'
import { firstDifference } from '../src/firstDifference.js'
import { PRESTATE_EXTRA_ACCOUNTS, sortKeys } from '../src/tracetestCompare.js'
import { loadCase, loadManifest, runTracetestCase } from '../src/runTracetestCase.js'
import { useWasmCounters } from '../src/useWasmCounters.js'

// geth's prestateTracer corpus (prestate and diffMode), compared as prestate_test.go does (test/src/tracetestCompare.ts).

const manifest = loadManifest('geth-tracetest').filter((m) => m.tracer === 'prestateTracer')

useWasmCounters(import.meta.filename, { expectFrames: true })

describe('geth prestateTracer corpus', () => {
  it.each(manifest.map((m) => [m.file, m] as const))('%s', async (file, m) => {
    const c = loadCase('geth-tracetest', file)
    const cfg = c.tracerConfig ?? {}
    const config = {
      diffMode: cfg.diffMode === true,
      disableCode: cfg.disableCode === true,
      disableStorage: cfg.disableStorage === true,
      includeEmpty: cfg.includeEmpty === true,
    }
    const recorder = createCallTraceRecorder({ logs: false, steps: false })
    const { state } = await runTracetestCase(c, m, recorder.hooks)
    const ours = toPrestate(await collectStateAccess(state), config) as Record<string, unknown>
    for (const extra of PRESTATE_EXTRA_ACCOUNTS[file] ?? []) {
      expect(ours[extra], `${extra} is the documented extra account`).toBeDefined()
      delete ours[extra]
    }
    const expected = sortKeys(c.result)
    expect(firstDifference(ours, expected)).toBeUndefined()
    expect(JSON.stringify(ours)).toBe(JSON.stringify(expected))
  })
})
