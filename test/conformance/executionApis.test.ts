import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { firstDifference } from '../src/firstDifference.js'
import { parseIoExchanges } from '../src/parseIoExchanges.js'
import { postJsonText } from '../src/rpc.js'
import { EXECUTION_APIS_DIR, useExecutionApisChain } from '../src/useExecutionApisChain.js'
import { useWasmCounters } from '../src/useWasmCounters.js'

// execution-apis' rpc-compat cases (responses recorded by geth through hive) for the debug methods:
// the chain (genesis.json + chain.rlp, Homestead … bpo2) is imported by a fixture node, an edgetrace
// server in front of it answers each `>>` request over HTTP, and the answer must equal the `<<` line
// exactly — results and errors (code and message), key order included, with one documented
// exception:
//  E1. A struct-logger result is streamed, so edgetrace writes `structLogs` first and `gas`, `failed`
//      and `returnValue` after it (Erigon's order: the totals are known only at the end; reference
//      §2.6); geth, which builds the whole result first, writes them before `structLogs`. Those four
//      keys are compared in geth's order; their values exactly.

const dir = EXECUTION_APIS_DIR

const cases = readdirSync(dir)
  .filter((d) => d.startsWith('debug_'))
  .sort()
  .flatMap((d) =>
    readdirSync(join(dir, d))
      .filter((f) => f.endsWith('.io'))
      .sort()
      .map((f) => ({ name: `${d}/${f}`, exchanges: parseIoExchanges(readFileSync(join(dir, d, f), 'utf8')) })),
  )

/** E1: struct-logger results with geth's key order. */
function gethKeyOrder(v: any): any {
  if (Array.isArray(v)) return v.map(gethKeyOrder)
  if (!v || typeof v !== 'object') return v
  const keys = Object.keys(v)
  if (keys.length === 4 && ['structLogs', 'gas', 'failed', 'returnValue'].every((k) => keys.includes(k))) {
    return { gas: v.gas, failed: v.failed, returnValue: v.returnValue, structLogs: v.structLogs }
  }
  return Object.fromEntries(keys.map((k) => [k, gethKeyOrder(v[k])]))
}

const chain = useExecutionApisChain(['eth', 'debug'])
// Its traces are struct logs (every step observed): ethereumjs runs them on either engine (a counted fallback).
const wasm = useWasmCounters(import.meta.filename, { expectFrames: false })
wasm.track(() => chain.edge?.engine.wasm?.counters)

describe('execution-apis debug_* cases', () => {
  for (const c of cases) {
    it(c.name, async () => {
      expect(c.exchanges.length).toBeGreaterThan(0)
      for (const { request, response } of c.exchanges) {
        const ours = gethKeyOrder(await postJsonText(chain.edge.url, request))
        const expected = JSON.parse(response)
        expect(firstDifference(ours, expected)).toBeUndefined()
        expect(JSON.stringify(ours)).toBe(JSON.stringify(expected))
      }
    })
  }
})
