import { describe, expect, it } from 'vitest'
import { nodeAnswer, startWorker, traceCallParams, txByLabel } from './support.js'

// Issue 37 in the browser: `engine: 'wasm'` in the worker's config fetches the wasm EVM (lazily, at
// the first run) from config.wasmUrl, runs frames on it, and answers exactly as the Node server
// (whose engine is ethereumjs). The page's dev server serves the build's dist/wasm/evm.wasm.
const WASM_URL = '/dist/wasm/evm.wasm'

describe('engine wasm in the Web Worker', () => {
  it('runs frames on the wasm EVM and answers as the Node server on ethereumjs', async () => {
    const client = await startWorker({ engine: { engine: 'wasm' }, wasmUrl: WASM_URL })
    try {
      const params = traceCallParams()
      const got = await client.call('debug_traceCall', params)
      expect(got).toEqual({ ...((await nodeAnswer('debug_traceCall', params)) as object), id: got.id })
      const { hash } = txByLabel('nested token calls (transferFrom, transfer, balanceOf)')
      const traced = await client.call('trace_transaction', [hash])
      expect(traced).toEqual({ ...((await nodeAnswer('trace_transaction', [hash])) as object), id: traced.id })
      const counters = (await client.status())!.counters
      expect(counters.wasmFrames).toBeGreaterThan(0)
      expect(counters.wasmFallbacks).toBe(0)
    } finally {
      await client.close()
    }
  })

  it('a wasm EVM that cannot be fetched: every run on ethereumjs, the same answers', async () => {
    const client = await startWorker({ engine: { engine: 'wasm' }, wasmUrl: '/no/such/evm.wasm' })
    try {
      const params = traceCallParams()
      const got = await client.call('debug_traceCall', params)
      expect(got).toEqual({ ...((await nodeAnswer('debug_traceCall', params)) as object), id: got.id })
      expect((await client.status())!.counters.wasmFrames).toBe(0)
    } finally {
      await client.close()
    }
  })

  it('refuses an engine it does not have, or a wasmUrl that is no URL, naming the field', async () => {
    for (const [overrides, message] of [
      [
        { engine: { engine: 'evmone' } },
        `invalid config.engine.engine: expected 'wasm' or 'ethereumjs' (--engine), got "evmone"`,
      ],
      [{ wasmUrl: 42 }, 'invalid config.wasmUrl: expected the URL of the wasm EVM (edgetrace-evm.wasm), got 42'],
    ] as const) {
      const err = await startWorker(overrides as never).catch((e: unknown) => e)
      expect(err).toMatchObject({ name: 'EdgetraceStartError', message, error: { code: -32602, message } })
    }
  })
})
