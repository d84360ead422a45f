import { afterAll, describe, expect, it } from 'vitest'
import type { EdgetraceClient } from '../../src/browser/connectEdgetraceWorker.js'
import buildInfo from '../../src/node/devnet/sources.json' with { type: 'json' }
import type { SourceFrame } from '../../src/tracing/render/source/toSourceFrames.js'
import { startWorker, txByLabel } from './support.js'

// Issue 38, sources into the browser: the worker's config takes build outputs as files (name and
// text) or as URLs, and its daemon's edgetrace_sourceTracer then traces the devnet at the source
// level, in Chromium. A file that is no build output, or a URL that does not answer, fails the start.

const text = JSON.stringify(buildInfo)
const clients: EdgetraceClient[] = []
afterAll(async () => {
  for (const c of clients) await c.close()
})

async function sourceTrace(client: EdgetraceClient, label: string): Promise<SourceFrame> {
  const answer = (await client.call('debug_traceTransaction', [
    txByLabel(label).hash,
    { tracer: 'edgetrace_sourceTracer' },
  ])) as { result?: SourceFrame; error?: unknown }
  if (!answer.result) throw new Error(JSON.stringify(answer.error))
  return answer.result
}

describe('config.sources', () => {
  it('a file (name and text): the devnet traced at the source level, contracts matched by their code', async () => {
    const client = await startWorker({ sources: [{ name: 'out/build-info/devnet.json', text }], workers: 0 })
    clients.push(client)
    const top = await sourceTrace(client, 'nested token calls (transferFrom, transfer, balanceOf)')
    expect([top.contract, top.function]).toEqual(['Scenarios', 'pull'])
    expect(top.calls.map((c) => [c.contract, c.function])).toEqual([
      ['Token', 'transferFrom'],
      ['Token', 'transfer'],
      ['Token', 'balanceOf'],
    ])
    // transferFrom's internal call to _move, reconstructed from the source map.
    expect(
      top.calls[0]!.internalCalls.some(function named(c): boolean {
        return c.function === '_move' || c.internalCalls.some(named)
      }),
    ).toBe(true)
    expect(top.steps.some((s) => s.file === 'Scenarios.sol' && s.line !== null)).toBe(true)
  })

  it('a URL, fetched at the start', async () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }))
    const client = await startWorker({ sources: [{ url }], workers: 0 })
    clients.push(client)
    const top = await sourceTrace(client, 'revert with Error(string)')
    expect([top.contract, top.function, top.reverted]).toEqual(['Scenarios', 'revertWithReason', true])
    expect(top.revert?.file).toBe('Scenarios.sol')
  })

  it('refuses what is no build output, and a URL that does not answer, naming the entry', async () => {
    for (const [sources, message] of [
      [
        [{ name: 'package.json', text: '{"name": "app"}' }],
        'invalid config.sources[0] (package.json): no solc standard-JSON output, Hardhat build-info or Foundry artifact',
      ],
      [
        [{ url: 'http://127.0.0.1:9/build-info.json' }],
        'invalid config.sources[0]: http://127.0.0.1:9/build-info.json could not be fetched',
      ],
      [[{ name: 'a.json' }], 'invalid config.sources[0]: expected { name, text } (a build output file'],
    ] as const) {
      const err = await startWorker({ sources: sources as never, workers: 0 }).catch((e: unknown) => e)
      expect(err).toMatchObject({ name: 'EdgetraceStartError', error: { code: -32602 } })
      expect((err as Error).message).toContain(message)
    }
  })
})
