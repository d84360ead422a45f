import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FixtureNode, startFixtureNode } from '../../src/node/fixture/startFixtureNode.js'
import { type RunningEdgetrace, startEdgetrace } from '../../src/node/startEdgetrace.js'
import { firstDifference } from '../src/firstDifference.js'

// Besu's trace_* specs (recorded by OpenEthereum, corrected by Besu) on Besu's trace test chain: the
// chain is imported by a fixture node (every block executed and checked against its header), an
// edgetrace server in front of it answers each spec's request over HTTP on verified state, and the
// answer must equal the recorded one the way Besu's own harness compares (AbstractJsonRpcHttpBySpecTest):
// the result exactly (key order included), id and jsonrpc.
//
// Documented exception: for an error response only the code is compared. Besu answers every
// malformed argument with the bare "Invalid params"; edgetrace's message names the argument and
// what was expected (the project's rule for bad input, geth/Erigon's wording).

const root = fileURLToPath(new URL('../fixtures/besu/trace-chain/', import.meta.url))
const specsDir = join(root, 'trace-specs')

type Spec = { request: Req | Req[]; response: Res | Res[]; statusCode: number }
type Req = { method: string; params: unknown[]; id: unknown }
type Res = { id: unknown; jsonrpc: string; result?: unknown; error?: { code: number; message: string } }

function walk(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name)
      return statSync(path).isDirectory() ? walk(path) : path.endsWith('.json') ? [path] : []
    })
    .sort()
}

/**
 * Recorded answers edgetrace does not reproduce, with the evidence (listed as skipped, with the reason).
 * Block 0x1E's transaction calls 0x0170…, whose code SELFDESTRUCTs (1 ETH balance) to 0x095e…, an
 * account that does not exist, with 497 gas left. The op costs 5,000 + 25,000 (EIP-150 new-account
 * charge, due under EIP-161 because value moves: geth's gasSelfdestructEIP150, OpenEthereum's own
 * gasometer, ethereumjs) and runs out of gas; the recorded vmTrace shows this op's cost as 5,000, the
 * base cost only. edgetrace reports 30,000, the cost geth's struct logs and our callTracer agree on.
 */
const DEVIATIONS: Record<string, string> = Object.fromEntries(
  [
    'replay-trace-transaction/all/trace_replayBlockTransactions_all_0x1E.json',
    'replay-trace-transaction/vm-trace/trace_replayBlockTransactions_0x1E.json',
    'trace-call/trace_call_1e_0_vmTrace.json',
    'trace-raw-transaction/trace_rawTransaction_1e_0_vmTrace.json',
  ].map((f) => [f, 'deviation: vmTrace cost of an out-of-gas SELFDESTRUCT recorded as its base cost (see DEVIATIONS)']),
)

/** Methods served so far; the others are listed as skipped, with the reason. */
const IMPLEMENTED = new Set(['trace_transaction', 'trace_get', 'trace_block', 'trace_replayBlockTransactions', 'trace_call', 'trace_callMany', 'trace_rawTransaction', 'trace_filter'])

function skipReason(spec: Spec): string | undefined {
  const requests = Array.isArray(spec.request) ? spec.request : [spec.request]
  for (const r of requests) {
    if (!IMPLEMENTED.has(r.method)) return `${r.method} is not implemented yet`
  }
  return undefined
}

const cases = walk(specsDir).map((path) => {
  const spec = JSON.parse(readFileSync(path, 'utf8')) as Spec
  const name = relative(specsDir, path)
  return { name, spec, skip: DEVIATIONS[name] ?? skipReason(spec) }
})

let node: FixtureNode
let edge: RunningEdgetrace
beforeAll(async () => {
  const genesis = JSON.parse(readFileSync(join(root, 'chain-data/genesis.json'), 'utf8')) as Record<string, unknown>
  node = await startFixtureNode({ genesis, blocks: new Uint8Array(readFileSync(join(root, 'chain-data/blocks.bin'))) })
  edge = await startEdgetrace({ upstream: node.url, port: 0, api: ['eth', 'debug', 'trace'], genesis: genesis as never })
}, 60_000)
afterAll(async () => {
  await edge?.close()
  await node?.close()
})

describe('Besu trace-chain trace_* specs', () => {
  for (const c of cases) {
    if (c.skip) {
      it.skip(`${c.name} — ${c.skip}`, () => {})
      continue
    }
    it(c.name, async () => {
      const res = await fetch(edge.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(c.spec.request) })
      expect(res.status).toBe(c.spec.statusCode)
      const body = (await res.json()) as Res | Res[]
      const expected = Array.isArray(c.spec.response) ? c.spec.response : [c.spec.response]
      const actual = Array.isArray(body) ? body : [body]
      expect(actual).toHaveLength(expected.length)
      expected.forEach((e, i) => {
        const a = actual[i]!
        expect(a.id).toEqual(e.id)
        expect(a.jsonrpc).toBe(e.jsonrpc)
        if ('result' in e) {
          expect(a.error).toBeUndefined()
          expect(firstDifference(a.result, e.result)).toBeUndefined()
          expect(JSON.stringify(a.result)).toBe(JSON.stringify(e.result))
        }
        if (e.error) expect(a.error?.code, `error ${JSON.stringify(a.error)} for expected ${JSON.stringify(e.error)}`).toBe(e.error.code)
      })
    })
  }
})
