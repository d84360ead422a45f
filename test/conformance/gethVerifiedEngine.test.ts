import { afterAll, describe, expect, it } from 'vitest'
import { type RunningEdgetrace, startEdgetrace } from '../../src/node/startEdgetrace.js'
import type { FixtureNode } from '../../tools/fixture-node/startFixtureNode.js'
import { firstDifference } from '../src/firstDifference.js'
import { rpc } from '../src/rpc.js'
import { loadCase, loadManifest } from '../src/runTracetestCase.js'
import { startTracetestNode } from '../src/startTracetestNode.js'
import {
  type Frame,
  type Json,
  PRESTATE_EXTRA_ACCOUNTS,
  canonicalCallFrame,
  normalizeFlatTraces,
  sortKeys,
} from '../src/tracetestCompare.js'
import { engineOptions } from '../src/conformanceEngine.js'
import { useWasmCounters } from '../src/useWasmCounters.js'

// geth's tracetest corpus through the whole product: each case becomes a chain served by a fixture
// node (a real JSON-RPC upstream: the case's alloc as genesis state, the case's transaction mined in
// a block built from its context); an edgetrace server in front of it answers
// debug_traceTransaction over HTTP from state it fetched with eth_getProof and verified against the
// block's state root, headers it hashed itself, and the transaction it replayed. The results must
// equal geth's recorded outputs under the same comparison rules as the local-state conformance tests.

const manifest = loadManifest('geth-tracetest').filter(
  (m) =>
    ['callTracer', 'flatCallTracer', 'prestateTracer'].includes(m.tracer) &&
    !m.file.startsWith('call_tracer_legacy/') &&
    !m.file.startsWith('prestate_tracer_legacy/'),
)

const wasm = useWasmCounters(import.meta.filename, { expectFrames: true })

const running: { node?: FixtureNode | undefined; edge?: RunningEdgetrace | undefined } = {}
afterAll(async () => {
  await running.edge?.close()
  await running.node?.close()
})

describe('geth tracetest corpus through a fixture node and the verified-state engine', () => {
  it.each(manifest.map((m) => [m.file, m] as const))('%s', async (file, m) => {
    const c = loadCase('geth-tracetest', file)
    const { node, txHash } = await startTracetestNode(c, m)
    running.node = node
    const edge = await startEdgetrace({
      upstream: node.url,
      port: 0,
      api: ['eth', 'debug'],
      hardfork: m.hardfork,
      engine: engineOptions(),
    })
    wasm.track(edge)
    running.edge = edge
    try {
      expect(edge.engine.options.unverified).toBe(false)
      const config = { tracer: m.tracer, ...(c.tracerConfig ? { tracerConfig: c.tracerConfig } : {}) }
      const out = await rpc(edge.url, 'debug_traceTransaction', [txHash, config])
      expect(out.error).toBeUndefined()
      if (m.tracer === 'callTracer') {
        const expected = canonicalCallFrame(c.result as Frame)
        const ours = canonicalCallFrame(out.result as Frame)
        expect(firstDifference(ours, expected)).toBeUndefined()
        expect(JSON.stringify(out.result)).toBe(JSON.stringify(expected))
      } else if (m.tracer === 'flatCallTracer') {
        expect(
          firstDifference(normalizeFlatTraces(out.result as Json[]), normalizeFlatTraces(c.result as Json[])),
        ).toBeUndefined()
      } else {
        const ours = out.result as Record<string, unknown>
        for (const extra of PRESTATE_EXTRA_ACCOUNTS[file] ?? []) delete ours[extra]
        const expected = sortKeys(c.result)
        expect(firstDifference(sortKeys(ours), expected)).toBeUndefined()
        expect(JSON.stringify(sortKeys(ours))).toBe(JSON.stringify(expected))
      }
      // Every account and slot came from the upstream as a proof.
      expect(edge.upstream.stats().calls).toBeGreaterThan(0)
    } finally {
      await edge.close()
      await node.close()
      running.edge = undefined
      running.node = undefined
    }
  })
})
