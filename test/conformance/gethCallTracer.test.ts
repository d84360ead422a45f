import { describe, expect, it } from 'vitest'
import { createCallTraceRecorder } from '../../src/tracing/recorder/createCallTraceRecorder.js'
import { toCallFrame } from '../../src/tracing/render/geth/toCallFrame.js'
import { firstDifference } from '../src/firstDifference.js'
import { loadCase, loadManifest, runTracetestCase } from '../src/runTracetestCase.js'

// geth's callTracer corpus, compared as geth's own harness does (calltrace_test.go): the expected
// result is decoded into geth's callTrace struct and re-encoded; our output must equal that string.

type Frame = Record<string, any>
const big = (v: unknown) => (v === undefined || v === null ? undefined : `0x${BigInt(v as string).toString(16)}`)
function canonical(f: Frame): Frame {
  const out: Frame = { from: f.from, gas: big(f.gas) ?? null, gasUsed: big(f.gasUsed) ?? null }
  if (f.to) out.to = f.to
  out.input = f.input ?? '0x'
  if (f.output && f.output !== '0x') out.output = f.output
  if (f.error) out.error = f.error
  if (f.revertReason) out.revertReason = f.revertReason
  if (f.calls?.length) out.calls = f.calls.map(canonical)
  if (f.logs?.length) {
    out.logs = f.logs.map((l: Frame) => ({ address: l.address, topics: l.topics, data: l.data, index: big(l.index ?? 0), position: big(l.position ?? 0) }))
  }
  if (f.value !== undefined && f.value !== null) out.value = big(f.value)
  out.type = f.type
  return out
}

const manifest = loadManifest('geth-tracetest').filter(
  (m) => m.tracer === 'callTracer' && (m.file.startsWith('call_tracer/') || m.file.startsWith('call_tracer_withLog/')),
)

describe('geth callTracer corpus', () => {
  it.each(manifest.map((m) => [m.file, m] as const))('%s', async (file, m) => {
    const c = loadCase('geth-tracetest', file)
    const config = { onlyTopCall: c.tracerConfig?.onlyTopCall === true, withLog: c.tracerConfig?.withLog === true }
    const recorder = createCallTraceRecorder({ logs: config.withLog, steps: false })
    const { result } = await runTracetestCase(c, m, recorder.hooks)
    const ours = toCallFrame(recorder.arena, config)
    const expected = canonical(c.result as Frame)
    expect(firstDifference(ours, expected)).toBeUndefined()
    expect(JSON.stringify(ours)).toBe(JSON.stringify(expected))
    expect(BigInt((c.result as Frame).gasUsed)).toBe(result.totalGasSpent)
  })
})
