import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { connectEdgetraceWorker } from '../../src/browser/connectEdgetraceWorker.js'
import { ProviderRpcError, createEip1193Provider } from '../../src/browser/createEip1193Provider.js'
import { type DevnetInfo, anvilResult, freshCacheName, newWorker } from './support.js'

// JavaScript tracers in the browser: the edgetrace worker hands a request with one to a Web Worker of
// its pool, hardened by SES; the answer equals anvil's own, and an endless tracer ends at its timeout
// while the worker keeps answering.
describe('JavaScript tracers in the browser worker', () => {
  let devnet: DevnetInfo
  beforeAll(async () => {
    devnet = await commands.startDevnet()
  })
  afterAll(async () => {
    if (devnet) await commands.stopDevnet(devnet.anvilUrl)
  })

  it('a step counter equals anvil’s on devnet transactions; an endless step is stopped at its timeout; the tracer sees no host global', async () => {
    const edge = await connectEdgetraceWorker(newWorker(), {
      upstream: devnet.anvilUrl,
      api: ['eth', 'debug'],
      hardfork: 'prague',
      workers: 1,
      cache: { name: freshCacheName('edgetrace-js') },
    })
    try {
      const tracer = `{ n: 0, ops: {}, step: function(log) { this.n++; var op = log.op.toString(); this.ops[op] = (this.ops[op] || 0) + 1 },
        fault: function() {}, result: function(ctx) { return { n: this.n, ops: this.ops, type: ctx.type, from: toHex(ctx.from) } } }`
      for (const tx of devnet.transactions.slice(0, 6)) {
        const want = await anvilResult(devnet.anvilUrl, 'debug_traceTransaction', [tx.hash, { tracer }])
        expect(await edge.call('debug_traceTransaction', [tx.hash, { tracer }]), tx.label).toMatchObject({
          result: want,
        })
      }
      const tx = devnet.transactions[devnet.transactions.length - 1]!.hash
      const started = Date.now()
      const endless = await edge.call('debug_traceTransaction', [
        tx,
        {
          tracer: '{ step: function() { for (;;) {} }, fault: function() {}, result: function() { return 1 } }',
          timeout: '1s',
        },
      ])
      expect(endless).toMatchObject({ error: { code: -32000, message: 'execution timeout' } })
      expect(Date.now() - started).toBeLessThan(20_000)
      expect(await edge.call('eth_chainId', [])).toMatchObject({ result: '0x7a69' })
      const escape = await edge.call('debug_traceTransaction', [
        tx,
        {
          tracer: `{ fault: function() {}, result: function() { return [typeof self, typeof fetch, typeof indexedDB, typeof postMessage] } }`,
        },
      ])
      expect(escape).toMatchObject({ result: ['undefined', 'undefined', 'undefined', 'undefined'] })
    } finally {
      await edge.close()
    }
  }, 120_000)

  it('through the EIP-1193 provider: a tracer’s result equals anvil’s, geth’s legacy call tracer by name, and a tracer’s error rejects with its code and geth’s words', async () => {
    const edge = await connectEdgetraceWorker(newWorker(), {
      upstream: devnet.anvilUrl,
      api: ['eth', 'debug'],
      hardfork: 'prague',
      workers: 1,
      cache: { name: freshCacheName('edgetrace-js-1193') },
    })
    const provider = createEip1193Provider(edge)
    try {
      const tracer = `{ writes: [], step: function(log) { if (log.op.toString() === 'SSTORE')
        this.writes.push([toHex(log.contract.getAddress()), log.stack.peek(0).toString(16), log.stack.peek(1).toString(16)]) },
        fault: function() {}, result: function() { return this.writes } }`
      for (const tx of devnet.transactions.slice(0, 6)) {
        const want = await anvilResult(devnet.anvilUrl, 'debug_traceTransaction', [tx.hash, { tracer }])
        expect(
          await provider.request({ method: 'debug_traceTransaction', params: [tx.hash, { tracer }] }),
          tx.label,
        ).toEqual(want)
      }
      const tx = devnet.transactions[0]!
      const legacy = (await provider.request({
        method: 'debug_traceTransaction',
        params: [tx.hash, { tracer: 'callTracerLegacy' }],
      })) as { from: string; type: string; gasUsed: string }
      const native = (await provider.request({
        method: 'debug_traceTransaction',
        params: [tx.hash, { tracer: 'callTracer' }],
      })) as { from: string; type: string; gasUsed: string }
      expect({ from: legacy.from, type: legacy.type, gasUsed: legacy.gasUsed }).toEqual({
        from: native.from,
        type: native.type,
        gasUsed: native.gasUsed,
      })
      const failing = await provider
        .request({
          method: 'debug_traceTransaction',
          params: [tx.hash, { tracer: '{ fault: function() {}, result: function() { throw new Error("nope") } }' }],
        })
        .catch((err: unknown) => err)
      expect(failing).toBeInstanceOf(ProviderRpcError)
      expect({ code: (failing as ProviderRpcError).code, message: (failing as ProviderRpcError).message }).toEqual({
        code: -32000,
        message: "Error: nope    in server-side tracer function 'result'",
      })
    } finally {
      await provider.close()
    }
  }, 120_000)
})
