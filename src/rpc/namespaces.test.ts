import { describe, expect, it } from 'vitest'
import { createEngine } from '../exec/createEngine.js'
import { createChainRules } from '../chain/createChainRules.js'
import type { Upstream } from '../upstream/types.js'
import { createRpcHandler } from './createRpcHandler.js'
import { bindNamespace, defineNamespace, methodPrefix } from './defineNamespace.js'
import { defineMethod } from './defineMethod.js'
import { NAMESPACES } from './namespaces.js'
import { required } from './params.js'
import { parseQuantity } from './parsers.js'

describe('the namespace registry', () => {
  it("lists every namespace of the reference daemon once, and edgetrace's own, each method once and under its own prefix", () => {
    const names = NAMESPACES.map((ns) => ns.name)
    expect(names).toEqual([
      'eth',
      'vendor',
      'web3',
      'net',
      'debug',
      'trace',
      'txpool',
      'sidechain',
      'ots',
      'parity',
      'overlay',
      'edgetrace',
    ])
    // Only edgetrace's own status is served whatever --http.api names.
    expect(NAMESPACES.filter((ns) => ns.alwaysServed).map((ns) => ns.name)).toEqual(['edgetrace'])
    const methods = NAMESPACES.flatMap((ns) => ns.methods.map((m) => m.name))
    expect(new Set(methods).size).toBe(methods.length)
    for (const ns of NAMESPACES)
      for (const m of ns.methods) expect(m.name.startsWith(`${methodPrefix(ns)}_`)).toBe(true)
    // vendor keeps the reference daemon's own method names.
    expect(methods).toContain('erigon_getHeaderByNumber')
    expect(methods).toContain('debug_traceTransaction')
    expect(methods).toContain('trace_replayBlockTransactions')
  })

  it('refuses a method declared under another namespace', () => {
    const stray = defineMethod({ name: 'eth_x', params: [], run: async () => 1 })
    expect(() => defineNamespace({ name: 'txpool', summary: '', methods: [stray] })).toThrow(
      'eth_x is not a txpool_ method',
    )
  })

  it('serves a declared method with its parameters parsed (a new method is one file and one line)', async () => {
    // No upstream is asked: the method computes from its arguments alone.
    const upstream = {
      request: async () => {
        throw new Error('not asked')
      },
    } as unknown as Upstream
    const engine = createEngine({ upstream, rules: createChainRules({ chainId: 1n }) })
    const status = defineMethod({
      name: 'txpool_double',
      params: [required(parseQuantity)],
      run: async (_engine, [n]) => `0x${(n * 2n).toString(16)}`,
    })
    const txpool = bindNamespace(defineNamespace({ name: 'txpool', summary: '', methods: [status] }), engine)
    const handler = createRpcHandler({ namespaces: txpool, enabled: ['txpool'] })
    const call = (params: unknown) => handler.handleMessage({ jsonrpc: '2.0', id: 1, method: 'txpool_double', params })
    expect(await call(['0x15'])).toEqual({ jsonrpc: '2.0', id: 1, result: '0x2a' })
    expect(await call([])).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'missing value for required argument 0' },
    })
    expect(await call(['0x1', 2])).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'too many arguments, want at most 1' },
    })
  })
})
