import { ParamError } from '../params.js'

/**
 * geth's runtime controls mapped onto a JavaScript runtime. Go's heap limit and GC percentage have
 * no equivalent a script may set; what edgetrace owns is its cache of verified state, so:
 * - debug_setMemoryLimit(bytes): the cache budget; returns the previous one;
 * - debug_setGCPercent(percent): how eagerly the cache evicts (down to budget × 100/(100+percent)
 *   once over budget; negative: never); returns the previous setting (default 0: to the budget);
 * - debug_freeOSMemory(): empties the cache, and runs the collector where the runtime exposes one
 *   (Node started with --expose-gc);
 * - debug_memStats / debug_gcStats: the runtime's own figures (see below), in Node and in browsers.
 */

export const parseInteger = (raw: unknown): number => {
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw))
    throw new ParamError(`json: cannot unmarshal ${typeof raw} into Go value of type int`)
  return raw
}

type RuntimeMemory = {
  heapUsed: number
  heapTotal: number
  external: number
  arrayBuffers: number
  rss?: number
  heapLimit?: number
  source: string
}

/** The runtime's memory figures: Node's process.memoryUsage(), or a browser's performance.memory where it has one. */
export function runtimeMemory(): RuntimeMemory | undefined {
  const g = globalThis as unknown as {
    process?: { memoryUsage?: () => Record<string, number> }
    performance?: { memory?: Record<string, number> }
  }
  const node = g.process?.memoryUsage?.()
  if (node) {
    return {
      heapUsed: node.heapUsed!,
      heapTotal: node.heapTotal!,
      external: node.external!,
      arrayBuffers: node.arrayBuffers ?? 0,
      rss: node.rss!,
      source: 'process.memoryUsage()',
    }
  }
  const browser = g.performance?.memory
  if (browser) {
    return {
      heapUsed: browser.usedJSHeapSize!,
      heapTotal: browser.totalJSHeapSize!,
      heapLimit: browser.jsHeapSizeLimit!,
      external: 0,
      arrayBuffers: 0,
      source: 'performance.memory',
    }
  }
  return undefined
}

/** Garbage collections seen since start, where the runtime reports them (Node's `gc` performance entries). */
export const gcSeen = {
  count: 0,
  totalPauseMs: 0,
  lastPauseMs: 0,
  lastAt: undefined as number | undefined,
  observed: false,
}
export function observeGc() {
  if (gcSeen.observed) return
  gcSeen.observed = true
  const Observer = (
    globalThis as unknown as {
      PerformanceObserver?: (new (
        cb: (list: { getEntries(): { duration: number; startTime: number }[] }) => void,
      ) => { observe(o: unknown): void }) & { supportedEntryTypes?: readonly string[] }
    }
  ).PerformanceObserver
  // Browsers have no `gc` entries (they ignore the request with a warning): the counts stay unavailable.
  if (!Observer?.supportedEntryTypes?.includes('gc')) {
    gcSeen.observed = false
    return
  }
  try {
    new Observer((list) => {
      for (const e of list.getEntries()) {
        gcSeen.count++
        gcSeen.totalPauseMs += e.duration
        gcSeen.lastPauseMs = e.duration
        gcSeen.lastAt = Date.now()
      }
    }).observe({ entryTypes: ['gc'] })
  } catch {
    // Browsers have no `gc` entries: the counts stay unavailable.
    gcSeen.observed = false
  }
}
