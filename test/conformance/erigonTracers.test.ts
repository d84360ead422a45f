import { describe, expect, it } from 'vitest'
import { createCallTraceRecorder } from '../../src/tracing/recorder/createCallTraceRecorder.js'
import { toCallFrame } from '../../src/tracing/render/geth/toCallFrame.js'
import { toFlatCallFrames } from '../../src/tracing/render/geth/toFlatCallFrames.js'
import { firstDifference } from '../src/firstDifference.js'
import { loadCase, loadManifest, runTracetestCase } from '../src/runTracetestCase.js'
import { useWasmCounters } from '../src/useWasmCounters.js'

// Erigon's callTracer cases of one mainnet transaction (16494085, index 277): Erigon's callTracer
// takes an extra `includePrecompiles` option; by default, like geth, it lists precompile frames.

const manifest = loadManifest('erigon').filter((m) => m.tracer === 'callTracer')

useWasmCounters(import.meta.filename, { expectFrames: true })

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

// Erigon's OE (Parity-style) tracer on the same transaction: the top entry's gas is what the top
// message got (gas limit − intrinsic) and used (before refunds). Compared as Erigon's TestOeTracer
// does, after a round trip through its structs (so key order does not matter).
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys)
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    )
  return v
}

describe('Erigon OE tracer cases', () => {
  const oe = loadManifest('erigon').filter((m) => m.file.startsWith('oetracer/'))
  it.each(oe.map((m) => [m.file, m] as const))('%s', async (file, m) => {
    const c = loadCase('erigon', file)
    const ctx = c.context as unknown as {
      hash: string
      number: string
      transactionHash: string
      transactionPosition: number
    }
    const recorder = createCallTraceRecorder({ logs: false, steps: false })
    await runTracetestCase(c, m, recorder.hooks)
    const ours = toFlatCallFrames(
      recorder.arena,
      {
        includePrecompiles: c.tracerConfig?.includePrecompiles === true,
        convertParityErrors: false,
        rootGas: 'message',
      },
      {
        blockHash: ctx.hash,
        blockNumber: BigInt(ctx.number),
        transactionHash: ctx.transactionHash,
        transactionPosition: ctx.transactionPosition,
      },
    )
    expect(firstDifference(sortKeys(ours), sortKeys(c.result))).toBeUndefined()
  })
})
