import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FixtureNode, startFixtureNode } from '../../tools/fixture-node/startFixtureNode.js'
import { type RunningEdgetrace, startEdgetrace } from '../../src/node/startEdgetrace.js'
import { firstDifference } from '../src/firstDifference.js'
import { engineOptions } from '../src/conformanceEngine.js'
import { useWasmCounters } from '../src/useWasmCounters.js'

// Besu's struct-logger specs (debug_traceTransaction, debug_traceBlockByNumber, debug_traceCall with
// overrides) on its trace test chain and its default test chain, each served by a fixture node,
// traced by an edgetrace server over HTTP. Besu's struct-log encoding is not geth's, and edgetrace
// serves geth's (the reference daemon's: execution-apis debug_trace*.io, recorded by geth); so the
// recorded answers are compared step by step after rewriting these encoding differences, each with
// its evidence — every value (pc, op, gas, gasCost, depth, stack, storage, memory words, return
// value, failed, gas used) is still compared:
//  S1. `storage`: Besu shows the storage map on every step once a slot was touched, keys and values
//      as bare minimal hex ("1": "1"); geth shows it only on SLOAD and SSTORE steps, keys and values
//      as 0x-prefixed 32-byte hex (execution-apis trace-block-storage-encoding.io).
//  S2. `memory`: Besu records it unless disableMemory; geth (and Erigon since RT #452) only with
//      enableMemory. Besu's words are minimal hex ("0x0"); geth's 0x-prefixed 32-byte hex
//      (execution-apis trace-block-memory-encoding.io).
//  S3. `returnValue`: Besu writes bare hex ("" for none); geth 0x-prefixed ("0x…",
//      trace-block-memory-encoding.io): compared without the prefix.
//  S4. A call without `gas`: Besu gives it 2^44 − 1 − intrinsic gas (its call default), geth and
//      Erigon the gas cap (50,000,000): the steps' gas is compared as gas used so far.
//  S6. `refund`: geth writes the refund counter when it is not zero (logger.go); Besu never does.
//  S5. A call to an account without code: Besu logs one STOP step; geth runs no interpreter for empty
//      code (core/vm/interpreter.go Run returns at once), so its struct logs are empty.

const fixtures = fileURLToPath(new URL('../fixtures/besu/', import.meta.url))
type Spec = { request: { method: string; params: unknown[]; id: unknown }; response: { result?: any; error?: any } }
type Step = Record<string, any>

const chains = [
  { dir: 'trace-chain', genesis: 'chain-data/genesis.json', blocks: 'chain-data/blocks.bin' },
  { dir: 'default-testchain', genesis: 'chain-data/testGenesis.json', blocks: 'chain-data/testBlockchain.blocks' },
]

function specs(dir: string): { name: string; spec: Spec }[] {
  const base = join(fixtures, dir, 'debug-specs')
  return readdirSync(base, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: `${dir}/${f}`, spec: JSON.parse(readFileSync(join(base, f), 'utf8')) as Spec }))
}

const word = (v: string) =>
  `0x${BigInt(v.startsWith('0x') ? v : `0x${v}`)
    .toString(16)
    .padStart(64, '0')}`

/** The config object of a debug_trace* request. */
function configOf(req: Spec['request']): Record<string, unknown> {
  const i = req.method === 'debug_traceCall' ? 2 : 1
  return (req.params[i] as Record<string, unknown>) ?? {}
}

/** One struct-log result (Besu's or ours) in geth's encoding, per S1–S4. */
function normalise(result: any, fromBesu: boolean, config: Record<string, unknown>, relativeGas: boolean) {
  const only = result.structLogs.length === 1 ? result.structLogs[0] : undefined
  const besuEmptyCodeStop =
    fromBesu && only?.op === 'STOP' && only.pc === 0 && only.gasCost === 0 && !only.stack?.length // S5
  const logs: Step[] = (besuEmptyCodeStop ? [] : result.structLogs).map((s: Step) => {
    const step: Step = { ...s }
    if (!fromBesu) delete step.refund // S6
    if (fromBesu) {
      if (step.storage && step.op !== 'SLOAD' && step.op !== 'SSTORE') delete step.storage // S1
      if (step.storage)
        step.storage = Object.fromEntries(Object.entries(step.storage).map(([k, v]) => [word(k), word(v as string)]))
      if (step.memory && config.enableMemory !== true) delete step.memory // S2
      if (step.memory) step.memory = step.memory.map(word)
    }
    return step
  })
  if (relativeGas && logs.length > 0) {
    const first = logs[0]!.gas
    for (const s of logs) s.gas = first - s.gas // S4
  }
  return {
    gas: result.gas,
    failed: result.failed,
    returnValue: String(result.returnValue).replace(/^0x/, ''),
    structLogs: logs,
  } // S3
}

// Struct logs observe every step: ethereumjs runs them on either engine (a counted fallback).
const wasm = useWasmCounters(import.meta.filename, { expectFrames: false })

for (const chain of chains) {
  describe(`Besu ${chain.dir} struct-logger specs`, () => {
    let node: FixtureNode
    let edge: RunningEdgetrace
    beforeAll(async () => {
      const genesis = JSON.parse(readFileSync(join(fixtures, chain.dir, chain.genesis), 'utf8')) as Record<
        string,
        unknown
      >
      node = await startFixtureNode({
        genesis,
        blocks: new Uint8Array(readFileSync(join(fixtures, chain.dir, chain.blocks))),
      })
      edge = await startEdgetrace({
        upstream: node.url,
        port: 0,
        api: ['eth', 'debug'],
        genesis: genesis as never,
        engine: engineOptions(),
      })
      wasm.track(edge)
    }, 60_000)
    afterAll(async () => {
      await edge?.close()
      await node?.close()
    })

    for (const { name, spec } of specs(chain.dir)) {
      it(name, async () => {
        const res = await fetch(edge.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(spec.request),
        })
        const body = (await res.json()) as { result?: any; error?: any }
        expect(body.error).toBeUndefined()
        const config = configOf(spec.request)
        const call =
          spec.request.method === 'debug_traceCall' ? (spec.request.params[0] as Record<string, unknown>) : undefined
        const relativeGas = call !== undefined && call.gas === undefined
        const pairs: [any, any][] =
          spec.request.method === 'debug_traceBlockByNumber'
            ? spec.response.result.map((e: any, i: number) => {
                expect(body.result[i].txHash).toBe(e.txHash)
                return [body.result[i].result, e.result]
              })
            : [[body.result, spec.response.result]]
        expect(body.result.length ?? 1).toBe(spec.response.result.length ?? 1)
        for (const [ours, besu] of pairs) {
          const a = normalise(ours, false, config, relativeGas)
          const e = normalise(besu, true, config, relativeGas)
          expect(firstDifference(a, e)).toBeUndefined()
        }
      })
    }
  })
}
