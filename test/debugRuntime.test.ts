import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type AnvilInstance } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { DEV_ACCOUNT, rpc, rpcResult } from './src/rpc.js'

// debug's runtime controls, mapped onto edgetrace's cache and the JavaScript runtime: each changes
// what it says it changes and reports the real figures.

let anvil: AnvilInstance
let edge: RunningEdgetrace
beforeAll(async () => {
  anvil = await startAnvil()
  await rpcResult(anvil.url, 'evm_mine', [])
  await rpcResult(anvil.url, 'evm_mine', [])
  edge = await startEdgetrace({ upstream: anvil.url, port: 0, hardfork: 'prague', api: ['eth', 'debug'] })
})
afterAll(async () => {
  await edge?.close()
  await anvil?.stop()
})

const call = { from: DEV_ACCOUNT, to: `0x${'11'.repeat(20)}`, value: '0x1' }

describe('debug_getBadBlocks', () => {
  it("is the upstream's list (edgetrace imports no blocks); anvil has none to give, and that is said clearly", async () => {
    const out = await rpc(edge.url, 'debug_getBadBlocks', [])
    expect(out.error?.message ?? JSON.stringify(out.result)).toMatch(
      /edgetrace imports no blocks of its own, and this upstream does not offer debug_getBadBlocks|^\[\]$/,
    )
  })
})

describe('debug runtime controls', () => {
  it('memStats reports the runtime heap and the cache; setMemoryLimit sets the cache budget and returns the previous', async () => {
    await rpcResult(edge.url, 'eth_call', [call, 'latest']) // fills the cache
    const stats = await rpcResult(edge.url, 'debug_memStats')
    expect(stats.runtime.source).toBe('process.memoryUsage()')
    expect(stats.runtime.heapUsed).toBeGreaterThan(1_000_000)
    expect(stats.cache.entries).toBeGreaterThan(0)
    expect(stats.cache.budget).toBe(256 * 1024 * 1024)
    expect(await rpcResult(edge.url, 'debug_setMemoryLimit', [1000])).toBe(256 * 1024 * 1024)
    const small = await rpcResult(edge.url, 'debug_memStats')
    expect(small.cache.budget).toBe(1000)
    expect(small.cache.bytes).toBeLessThanOrEqual(1000)
    expect(await rpcResult(edge.url, 'debug_setMemoryLimit', [256 * 1024 * 1024])).toBe(1000)
    expect((await rpc(edge.url, 'debug_setMemoryLimit', ['0x10'])).error?.code).toBe(-32602)
  })

  it('setGCPercent returns the previous setting; a negative one stops eviction', async () => {
    expect(await rpcResult(edge.url, 'debug_setGCPercent', [-1])).toBe(0)
    await rpcResult(edge.url, 'debug_setMemoryLimit', [1])
    await rpcResult(edge.url, 'eth_call', [call, 'latest'])
    const kept = await rpcResult(edge.url, 'debug_memStats')
    expect(kept.cache.bytes).toBeGreaterThan(1) // over budget, nothing evicted
    expect(await rpcResult(edge.url, 'debug_setGCPercent', [100])).toBe(-1)
    expect((await rpcResult(edge.url, 'debug_memStats')).cache.bytes).toBeLessThanOrEqual(1)
    await rpcResult(edge.url, 'debug_setMemoryLimit', [256 * 1024 * 1024])
    await rpcResult(edge.url, 'debug_setGCPercent', [0])
  })

  it('freeOSMemory empties the cache, and gcStats reports the collector', async () => {
    await rpcResult(edge.url, 'eth_call', [call, 'latest'])
    expect(await rpcResult(edge.url, 'debug_freeOSMemory')).toBeNull()
    expect((await rpcResult(edge.url, 'debug_memStats')).cache.entries).toBe(0)
    const gc = await rpcResult(edge.url, 'debug_gcStats')
    expect(typeof gc.numGC).toBe('number')
    expect(gc).toHaveProperty('pauseTotalMs')
    expect(gc).toHaveProperty('evictions')
  })
})
