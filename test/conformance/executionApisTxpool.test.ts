import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseIoExchanges } from '../src/parseIoExchanges.js'
import { postJsonText } from '../src/rpc.js'
import { EXECUTION_APIS_DIR, useExecutionApisChain } from '../src/useExecutionApisChain.js'
import { useWasmCounters } from '../src/useWasmCounters.js'

// execution-apis' txpool_* cases on the fork-transition chain. All three are "speconly" (hive checks
// their schema only): geth recorded its own pool, which no other node has. Held to: the recorded
// answer's shape — every key it has, with values of the same kind (sub-pools as sender → nonce →
// transaction objects, counts as quantities) — plus the reference daemon's `baseFee` sub-pool, and
// the recorded values where they do not depend on geth's pool (an empty sender's content).
const root = EXECUTION_APIS_DIR
const cases = readdirSync(root)
  .filter((d) => d.startsWith('txpool_'))
  .sort()
  .flatMap((method) =>
    readdirSync(join(root, method))
      .filter((f) => f.endsWith('.io'))
      .map((f) => ({
        name: `${method}/${f}`,
        method,
        exchanges: parseIoExchanges(readFileSync(join(root, method, f), 'utf8')),
      })),
  )

const chain = useExecutionApisChain(['eth', 'txpool'])
const wasm = useWasmCounters(import.meta.filename, { expectFrames: false })
wasm.track(() => chain.edge?.engine.wasm?.counters)

const isPool = (v: unknown) =>
  typeof v === 'object' &&
  v !== null &&
  Object.entries(v).every(
    ([sender, byNonce]) =>
      /^0x[0-9a-fA-F]{40}$/.test(sender) &&
      Object.entries(byNonce as object).every(([n, tx]) => /^\d+$/.test(n) && typeof tx === 'object' && tx !== null),
  )
const isNonceMap = (v: unknown) =>
  typeof v === 'object' && v !== null && Object.entries(v).every(([n, tx]) => /^\d+$/.test(n) && typeof tx === 'object')

describe('execution-apis txpool_* cases (schema, and values where recorded)', () => {
  it('has the three cases', () =>
    expect(cases.map((c) => c.method)).toEqual(['txpool_content', 'txpool_contentFrom', 'txpool_status']))
  for (const c of cases)
    it(c.name, async () => {
      for (const { request, response } of c.exchanges) {
        const ours = await postJsonText(chain.edge.url, request)
        const expected = JSON.parse(response)
        expect(ours.error).toBeUndefined()
        expect(Object.keys(ours.result).sort()).toEqual(
          [...new Set([...Object.keys(expected.result), 'baseFee'])].sort(),
        )
        for (const [pool, value] of Object.entries(ours.result)) {
          if (c.method === 'txpool_status') expect(value).toMatch(/^0x([1-9a-f][0-9a-f]*|0)$/)
          else if (c.method === 'txpool_content') expect(isPool(value), pool).toBe(true)
          else expect(isNonceMap(value), pool).toBe(true)
        }
        if (c.method === 'txpool_contentFrom') {
          const { baseFee, ...recordedKeys } = ours.result
          expect(baseFee).toEqual({})
          expect(recordedKeys).toEqual(expected.result)
        }
      }
    })
})
