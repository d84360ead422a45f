import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll } from 'vitest'
import { type RunningEdgetrace, startEdgetrace } from '../../src/node/startEdgetrace.js'
import { type FixtureNode, startFixtureNode } from '../../tools/fixture-node/startFixtureNode.js'
import { engineOptions } from './conformanceEngine.js'

/** The vendored execution-apis folder: the chain (genesis.json, chain.rlp) and the `.io` cases. */
export const EXECUTION_APIS_DIR = fileURLToPath(new URL('../fixtures/execution-apis/', import.meta.url))

export type ExecutionApisChain = {
  node: FixtureNode
  edge: RunningEdgetrace
  /** The same server with geth's estimateGas tolerance (`--rpc.gasestimate.errorratio 0.015`), when asked for. */
  gethEstimateEdge?: RunningEdgetrace
}

/**
 * execution-apis' fork-transition chain (Homestead … bpo2, 54 blocks) imported by a fixture node,
 * with an edgetrace server in front of it serving `api` on the conformance engine (test/src/conformanceEngine.ts) (and, with `gethEstimate`, a second one
 * estimating gas with geth's 1.5% tolerance); one per test file (call at the top level:
 * it registers the file's hooks). Filled in by beforeAll.
 */
export function useExecutionApisChain(api: string[], { gethEstimate = false } = {}): ExecutionApisChain {
  const env = {} as ExecutionApisChain
  beforeAll(async () => {
    const genesis = JSON.parse(readFileSync(join(EXECUTION_APIS_DIR, 'genesis.json'), 'utf8')) as Record<
      string,
      unknown
    >
    const blocks = new Uint8Array(readFileSync(join(EXECUTION_APIS_DIR, 'chain.rlp')))
    env.node = await startFixtureNode({ genesis, blocks })
    env.edge = await startEdgetrace({
      upstream: env.node.url,
      port: 0,
      api,
      genesis: genesis as never,
      engine: engineOptions(),
    })
    if (gethEstimate) {
      env.gethEstimateEdge = await startEdgetrace({
        upstream: env.node.url,
        port: 0,
        api,
        genesis: genesis as never,
        engine: engineOptions({ estimateGasErrorRatio: 0.015 }),
      })
    }
  }, 120_000)
  afterAll(async () => {
    await env.edge?.close()
    await env.gethEstimateEdge?.close()
    await env.node?.close()
  })
  return env
}
