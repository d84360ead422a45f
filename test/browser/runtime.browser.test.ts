import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type EdgetraceService, createEdgetraceService } from '../../src/browser/createEdgetraceService.js'
import { configFor, traceCallParams } from './support.js'

// debug's runtime controls in a browser page (the daemon in the page itself): memStats reports the
// page's real heap figures (Chromium's performance.memory), gcStats says what a browser cannot report.
describe('runtime controls in a page', () => {
  let service: EdgetraceService
  const call = async (method: string, params: unknown[] = []) =>
    (await service.request({ jsonrpc: '2.0', id: 1, method, params })) as { result?: any; error?: any }
  beforeAll(async () => {
    service = await createEdgetraceService(configFor())
    await call('debug_traceCall', traceCallParams())
  })
  afterAll(async () => {
    await service?.close()
  })

  it('debug_memStats: the heap as the browser reports it, and both caches', async () => {
    const { result } = await call('debug_memStats')
    const memory = (performance as unknown as { memory: { jsHeapSizeLimit: number } }).memory
    expect(result.runtime).toMatchObject({
      source: 'performance.memory',
      heapLimit: memory.jsHeapSizeLimit,
      external: 0,
      arrayBuffers: 0,
    })
    expect(result.runtime.heapUsed).toBeGreaterThan(1_000_000)
    expect(result.runtime.heapTotal).toBeGreaterThanOrEqual(result.runtime.heapUsed)
    expect(result.cache.entries).toBeGreaterThan(0)
    expect(result.persistent.entries).toBeGreaterThan(0)
  })

  it('debug_freeOSMemory empties the memory cache and runs the collector the page exposes', async () => {
    expect(await call('debug_freeOSMemory')).toHaveProperty('result', null)
    const { result } = await call('debug_memStats')
    expect(result.cache.entries).toBe(0)
    // The persistent cache is not memory: it stays.
    expect(result.persistent.entries).toBeGreaterThan(0)
  })

  it('debug_gcStats: null counts (browsers report no collections), the cache evictions', async () => {
    expect(await call('debug_gcStats')).toHaveProperty('result', {
      numGC: null,
      pauseTotalMs: null,
      lastPauseMs: null,
      lastGC: null,
      evictions: 0,
    })
  })

  it('debug_setGCPercent and debug_setMemoryLimit return the previous settings', async () => {
    expect(await call('debug_setGCPercent', [50])).toHaveProperty('result', 0)
    expect(await call('debug_setGCPercent', [0])).toHaveProperty('result', 50)
    expect(await call('debug_setMemoryLimit', [64 * 1024 * 1024])).toHaveProperty('result', 256 * 1024 * 1024)
  })
})
