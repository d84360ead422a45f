import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { connectEdgetraceWorker } from '../../src/browser/connectEdgetraceWorker.js'
import type { EdgetraceConfig } from '../../src/browser/createEdgetraceService.js'
import { type DevnetInfo, anvilResult, freshCacheName, newWorker } from './support.js'

// Long ranges in the browser fan out to more Web Workers, each with its own daemon on the same
// IndexedDB database: the same answers as one worker alone computes, in the same order.
describe('ranges on Web Workers', () => {
  let devnet: DevnetInfo
  let head: string
  const config = (workers: number): EdgetraceConfig => ({
    upstream: devnet.anvilUrl,
    api: ['eth', 'trace', 'debug'],
    hardfork: 'prague',
    cache: { name: freshCacheName(`edgetrace-range-${workers}`) },
    workers,
  })
  beforeAll(async () => {
    devnet = await commands.startDevnet()
    // Past the fan-out threshold (64 blocks): the devnet's transactions, then empty blocks.
    await anvilResult(devnet.anvilUrl, 'anvil_mine', ['0x40'])
    head = await anvilResult(devnet.anvilUrl, 'eth_blockNumber', [])
  })
  afterAll(async () => {
    if (devnet) await commands.stopDevnet(devnet.anvilUrl)
  })

  it('trace_filter and debug_getModifiedAccountsByNumber: equal with two workers and with none', async () => {
    const alone = await connectEdgetraceWorker(newWorker(), config(0))
    const pooled = await connectEdgetraceWorker(newWorker(), config(2))
    const calls = [
      { method: 'trace_filter', params: [{ fromBlock: '0x2', toBlock: head }] },
      { method: 'trace_filter', params: [{ fromBlock: '0x2', toBlock: head, after: 2, count: 7 }] },
      { method: 'debug_getModifiedAccountsByNumber', params: ['0x2', head] },
    ]
    for (const { method, params } of calls) {
      const a = await alone.call(method, params)
      const before = (await pooled.status())!.upstreamRequests
      const b = await pooled.call(method, params)
      const asked = (await pooled.status())!.upstreamRequests - before
      expect('result' in a && a.result !== null, method).toBe(true)
      expect(b, method).toEqual(a)
      // The other workers replayed the blocks: this daemon itself asked next to nothing.
      expect(asked, method).toBeLessThan(10)
    }
    expect(
      ((await alone.call('trace_filter', calls[0]!.params)) as { result: unknown[] }).result.length,
    ).toBeGreaterThan(20)
    await alone.close()
    await pooled.close()
  }, 120_000)
})
