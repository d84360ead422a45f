import { describe, expect, it } from 'vitest'
import { createCallTraceRecorder } from '../../src/tracing/recorder/createCallTraceRecorder.js'
import { toFlatCallFrames } from '../../src/tracing/render/geth/toFlatCallFrames.js'
import { firstDifference } from '../src/firstDifference.js'
import { loadCase, loadManifest, runTracetestCase } from '../src/runTracetestCase.js'

// geth's flatCallTracer corpus, compared as flat_calltrace_test.go does: both sides decoded into
// geth's flatCallTrace struct (blockHash, blockNumber, transactionHash, transactionPosition and time
// ignored; omitempty fields make 0, "0x" and missing equal), then deep-equal.

type Json = Record<string, any>
const ACTION = ['author', 'rewardType', 'address', 'balance', 'callType', 'creationMethod', 'from', 'gas', 'init', 'input', 'refundAddress', 'to', 'value']
const RESULT = ['address', 'code', 'gasUsed', 'output']
const QUANTITIES = new Set(['balance', 'gas', 'value', 'gasUsed'])
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'

function normalizeFields(obj: Json | undefined | null, keys: string[]): Json {
  const out: Json = {}
  for (const k of keys) {
    let v = obj?.[k]
    if (v === undefined || v === null) continue
    if (QUANTITIES.has(k)) v = BigInt(v).toString()
    else if (typeof v === 'string') v = v.toLowerCase()
    if (v === '0' || v === '0x' || v === '' || v === ZERO_ADDRESS) continue
    out[k] = v
  }
  return out
}

function normalize(traces: Json[]): Json[] {
  return traces.map((t) => ({
    action: normalizeFields(t.action, ACTION),
    error: t.error ?? '',
    result: normalizeFields(t.result, RESULT),
    subtraces: t.subtraces ?? 0,
    traceAddress: t.traceAddress ?? [],
    type: t.type ?? '',
  }))
}

const manifest = loadManifest('geth-tracetest').filter((m) => m.tracer === 'flatCallTracer')

describe('geth flatCallTracer corpus', () => {
  it.each(manifest.map((m) => [m.file, m] as const))('%s', async (file, m) => {
    const c = loadCase('geth-tracetest', file)
    const config = {
      includePrecompiles: c.tracerConfig?.includePrecompiles === true,
      convertParityErrors: c.tracerConfig?.convertParityErrors === true,
    }
    const recorder = createCallTraceRecorder({ logs: false, steps: false })
    await runTracetestCase(c, m, recorder.hooks)
    const ours = toFlatCallFrames(recorder.arena, config, { blockNumber: BigInt(c.context.number), transactionPosition: 0 })
    const expected = normalize(c.result as Json[])
    const actual = normalize(ours as unknown as Json[])
    expect(firstDifference(actual, expected)).toBeUndefined()
  })
})
