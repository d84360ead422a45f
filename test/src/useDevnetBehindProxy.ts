import { afterAll, afterEach, beforeAll } from 'vitest'
import type { EngineOptions } from '../../src/exec/createEngine.js'
import { type Devnet, startDevnet } from '../../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../../src/node/startEdgetrace.js'
import { type Proxy, type ProxyHooks, createProxy } from './createProxy.js'
import { rpcResult } from './rpc.js'

export type DevnetBehindProxy = {
  devnet: Devnet
  /** The fault proxy in front of the devnet's anvil (its hooks set by edgeVia). */
  proxy: Proxy
  /** The devnet's head block once its transactions are mined. */
  head: { number: string; hash: string }
  /** An edgetrace in front of the proxy, the proxy's hooks set to `hooks`; closed after the test. */
  edgeVia(hooks?: ProxyHooks, engine?: Partial<EngineOptions>): Promise<RunningEdgetrace>
  /** Closes the test's edgetrace now (to start another within the same test). */
  closeEdge(): Promise<void>
}

/**
 * One devnet per test file behind the fault proxy, for tests that tamper with what the upstream
 * answers; call at the file's top level (it registers the file's hooks). Filled in by beforeAll.
 */
export function useDevnetBehindProxy(): DevnetBehindProxy {
  let edge: RunningEdgetrace | undefined
  const env = {
    async edgeVia(hooks: ProxyHooks = {}, engine: Partial<EngineOptions> = {}) {
      env.proxy.hooks = hooks
      edge = await startEdgetrace({ upstream: env.proxy.url, port: 0, hardfork: 'prague', engine })
      return edge
    },
    async closeEdge() {
      await edge?.close()
      edge = undefined
    },
  } as DevnetBehindProxy
  beforeAll(async () => {
    env.devnet = await startDevnet()
    env.head = await rpcResult(env.devnet.anvil.url, 'eth_getBlockByNumber', ['latest', false])
    env.proxy = await createProxy(env.devnet.anvil.url)
  }, 120_000)
  afterEach(() => env.closeEdge())
  afterAll(async () => {
    await env.proxy?.stop()
    await env.devnet?.stop()
  })
  return env
}

/** `hex` with one hex digit changed (the third from the end by default): a value tampered with. */
export function flipHexDigit(hex: string, at = -3): string {
  const i = hex.length + at
  return hex.slice(0, i) + (hex[i] === '0' ? '1' : '0') + hex.slice(i + 1)
}
