import { inject } from 'vitest'
import { type EdgetraceClient, connectEdgetraceWorker } from '../../src/browser/connectEdgetraceWorker.js'
import type { EdgetraceConfig } from '../../src/browser/createEdgetraceService.js'
import type { BrowserEnv } from './globalSetup.js'

export const env = (): BrowserEnv => inject('browserEnv')

export function txByLabel(label: string) {
  const tx = env().transactions.find((t) => t.label === label)
  if (!tx) throw new Error(`no devnet transaction "${label}"`)
  return tx
}

/** The Node edgetrace server's answer (the reference the browser's answers must equal). */
export async function nodeAnswer(method: string, params: unknown[], url = env().nodeUrl): Promise<any> {
  return nodePost({ jsonrpc: '2.0', id: 1, method, params }, url)
}

/** A call straight to a devnet's anvil (to mine blocks, or read what anvil itself answers). */
export async function anvilResult(url: string, method: string, params: unknown[]): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await res.json()).result
}

/** A raw JSON-RPC message posted to the Node server. */
export async function nodePost(message: unknown, url = env().nodeUrl): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(message),
  })
  return res.json()
}

/** A new edgetrace worker: the bundle built from the current sources by the global setup. */
export function newWorker(): Worker {
  return new Worker(env().bundles.worker)
}

/** The service worker's script for registerEdgetraceServiceWorker: the bundle built by the global setup. */
export function serviceWorkerScript(): { scriptUrl: string; type: 'classic' } {
  return { scriptUrl: env().bundles.serviceWorker, type: 'classic' }
}

let dbCounter = 0
/** A fresh database name per test, so tests never see each other's cache. */
export function freshCacheName(prefix: string): string {
  return `${prefix}-${Date.now()}-${dbCounter++}`
}

export function configFor(overrides: Partial<EdgetraceConfig> = {}): EdgetraceConfig {
  const e = env()
  return {
    upstream: e.anvilUrl,
    api: e.api,
    hardfork: 'prague',
    cache: { name: freshCacheName('edgetrace-test') },
    ...overrides,
  }
}

export async function startWorker(overrides: Partial<EdgetraceConfig> = {}): Promise<EdgetraceClient> {
  return connectEdgetraceWorker(newWorker(), configFor(overrides))
}

/** A debug_traceCall the tests send every way: a nested call of the demo contracts at the head. */
export function traceCallParams(): unknown[] {
  const e = env()
  const recurse = '0xb2041d21' // recurse(uint256)
  return [
    { from: e.accounts[0], to: e.contracts.Scenarios, data: `${recurse}${'0'.repeat(63)}3` },
    'latest',
    { tracer: 'callTracer' },
  ]
}

export type DevnetInfo = {
  anvilUrl: string
  transactions: BrowserEnv['transactions']
  accounts: `0x${string}`[]
  contracts: Record<string, `0x${string}`>
}
export type HarnessRun = {
  started: { startedOffline: boolean; upstreamRequests: number }
  before: { upstreamRequests: number; persistent: { hits: number } | null }
  after: { upstreamRequests: number; persistent: { hits: number } | null }
  answers: { id: number; result?: unknown; error?: { code: number; message: string } }[]
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    startDevnet(): Promise<DevnetInfo>
    stopDevnet(url: string): Promise<void>
    startBorDevnet(): Promise<{ url: string; hashes: string[] }>
    stopBorDevnet(url: string): Promise<void>
    runDemoInBrowser(origin: string, upstream: string, method: string): Promise<{ status: string; output: string }>
    runInFreshPageTwice(
      origin: string,
      config: EdgetraceConfig,
      calls: { method: string; params: unknown[] }[],
      workerUrl: string,
    ): Promise<[HarnessRun, HarnessRun]>
  }
}
