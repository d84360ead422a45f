import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FixtureNode, startFixtureNode } from '../../tools/fixture-node/startFixtureNode.js'
import { type RunningEdgetrace, startEdgetrace } from '../../src/node/startEdgetrace.js'
import { firstDifference } from '../src/firstDifference.js'
import { parseIoExchanges } from '../src/parseIoExchanges.js'

// execution-apis' eth_simulateV1 cases (responses recorded by geth through hive) on the fork-transition
// chain served by the fixture node, answered by an edgetrace server over HTTP. The answer must equal
// the `<<` line exactly — results and errors, key order included, every header field (the post-state
// stateRoot computed from the base block's proven trie nodes, and so hash, parentHash and the logs'
// blockHash). Cases that differ are listed in GAPS with the reason, and skipped.

const dir = fileURLToPath(new URL('../fixtures/execution-apis/eth_simulateV1/', import.meta.url))
const chainDir = fileURLToPath(new URL('../fixtures/execution-apis/', import.meta.url))

const GAPS: Record<string, string> = {}

const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.io'))
  .sort()
  .map((f) => ({ name: f, exchanges: parseIoExchanges(readFileSync(join(dir, f), 'utf8')) }))

let node: FixtureNode
let edge: RunningEdgetrace
beforeAll(async () => {
  const genesis = JSON.parse(readFileSync(join(chainDir, 'genesis.json'), 'utf8')) as Record<string, unknown>
  node = await startFixtureNode({ genesis, blocks: new Uint8Array(readFileSync(join(chainDir, 'chain.rlp'))) })
  edge = await startEdgetrace({ upstream: node.url, port: 0, api: ['eth'], genesis: genesis as never })
}, 120_000)
afterAll(async () => {
  await edge?.close()
  await node?.close()
})

describe('execution-apis eth_simulateV1 cases', () => {
  for (const c of cases) {
    const gap = GAPS[c.name]
    if (gap) {
      it.skip(`${c.name} — ${gap}`, () => {})
      continue
    }
    it(c.name, async () => {
      expect(c.exchanges.length).toBeGreaterThan(0)
      for (const { request, response } of c.exchanges) {
        const res = await fetch(edge.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: request,
        })
        const ours = JSON.parse(await res.text())
        const expected = JSON.parse(response)
        expect(firstDifference(ours, expected)).toBeUndefined()
        expect(JSON.stringify(ours)).toBe(JSON.stringify(expected))
      }
    })
  }
})
