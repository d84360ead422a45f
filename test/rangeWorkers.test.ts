import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../src/node/devnet/startDevnet.js'
import type { EngineOptions } from '../src/exec/createEngine.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { DEV_ACCOUNT, rpc, rpcResult } from './src/rpc.js'

/** A JSON-RPC batch posted as one request: its answers. */
const postBatch = async (url: string, batch: unknown[]) =>
  (
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) })
  ).json()

// Long ranges fanned out to worker threads: the same answer, in the same order, as the main thread
// computes alone — whole, filtered, paged (after/count), and with the errors a range can meet.
describe('ranges on worker threads', () => {
  let devnet: Devnet
  let alone: RunningEdgetrace
  let pooled: RunningEdgetrace
  let head: string
  // The ots searches scan blocks (no index: anvil's own ots_search is not asked).
  const start = (
    workers: { threads: number; minBlocks?: number; warm?: boolean },
    engine: Partial<EngineOptions> = {},
  ) =>
    startEdgetrace({
      upstream: devnet.anvil.url,
      port: 0,
      hardfork: 'prague',
      api: ['eth', 'trace', 'debug', 'ots'],
      workers,
      engine: { otsSearchIndex: false, ...engine },
    })
  beforeAll(async () => {
    devnet = await startDevnet()
    alone = await start({ threads: 0 })
    pooled = await start({ threads: 2, minBlocks: 2 })
    head = await rpcResult(devnet.anvil.url, 'eth_blockNumber')
  }, 120_000)
  afterAll(async () => {
    await alone?.close()
    await pooled?.close()
    await devnet?.stop()
  })

  const both = async (method: string, params: unknown[]) => {
    const [a, b] = [await rpc(alone.url, method, params), await rpc(pooled.url, method, params)]
    return { a, b }
  }

  it('trace_filter over the whole devnet: the same traces in the same order', async () => {
    alone.upstream.resetStats()
    pooled.upstream.resetStats()
    const { a, b } = await both('trace_filter', [{ fromBlock: '0x2', toBlock: head }])
    expect(a.result.length).toBeGreaterThan(20)
    expect(b).toEqual(a)
    // The workers replayed the blocks: the main daemon itself asked the upstream for next to nothing.
    expect(pooled.upstream.stats().calls).toBeLessThan(alone.upstream.stats().calls / 4)
  }, 120_000)

  it('filtered by address, and paged with after and count across the stretches', async () => {
    const sample = (await rpcResult(alone.url, 'trace_filter', [{ fromBlock: '0x2', toBlock: head }])) as {
      action: { from?: string }
    }[]
    const from = sample.find((t) => t.action.from)!.action.from!
    for (const filter of [
      { fromAddress: [from] },
      { fromAddress: [from], toAddress: [from], mode: 'union' },
      { after: 3, count: 5 },
      { after: sample.length - 2, count: 10 },
      { count: 1 },
    ]) {
      const { a, b } = await both('trace_filter', [{ fromBlock: '0x2', toBlock: head, ...filter }])
      expect(b, JSON.stringify(filter)).toEqual(a)
    }
  }, 120_000)

  it('debug_getModifiedAccountsByNumber and ByHash: the same accounts', async () => {
    const byNumber = await both('debug_getModifiedAccountsByNumber', ['0x2', head])
    expect(byNumber.a.result.length).toBeGreaterThan(5)
    expect(byNumber.b).toEqual(byNumber.a)
    const hashOf = async (n: string) => (await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', [n, false])).hash
    const byHash = await both('debug_getModifiedAccountsByHash', [await hashOf('0x2'), await hashOf(head)])
    expect(byHash.b).toEqual(byHash.a)
  }, 120_000)

  const NOBODY = '0x00000000000000000000000000000000000c0ffe'
  const searches = (middle: number) =>
    [devnet.contracts.Token!, DEV_ACCOUNT, NOBODY].flatMap((address) =>
      ['ots_searchTransactionsBefore', 'ots_searchTransactionsAfter'].flatMap((method) =>
        [
          [0, 25],
          [0, 1],
          [middle, 3],
        ].map(([block, size]) => ({ method, params: [address, block, size] })),
      ),
    )

  it('ots_searchTransactionsBefore / After: the block scans in stretches on the workers find the same pages, pages filled early included', async () => {
    // The stretches the searches hand the workers are counted on their way.
    const workers = pooled.engine.rangeWorkers!
    const run = workers.run.bind(workers)
    let stretches = 0
    workers.run = (text, signal, onTxStart) => {
      if (text.includes('"edgetrace_touchingBlocks"')) stretches++
      return run(text, signal, onTxStart)
    }
    try {
      let found = 0
      for (const { method, params } of searches(Math.floor(Number(head) / 2))) {
        const { a, b } = await both(method, params)
        expect(a.error, `${method} ${JSON.stringify(params)}`).toBeUndefined()
        expect(b, `${method} ${JSON.stringify(params)}`).toEqual(a)
        found += a.result.txs.length
      }
      expect(found).toBeGreaterThan(20)
      expect(stretches).toBeGreaterThan(10)
    } finally {
      workers.run = run
    }
  }, 120_000)

  it('a scan on the workers keeps --ots.search.maxblocks: the same pages within it, the same error past it', async () => {
    const limited = [
      await start({ threads: 0 }, { otsSearchMaxBlocks: 12 }),
      await start({ threads: 2, minBlocks: 2 }, { otsSearchMaxBlocks: 12 }),
    ] as const
    try {
      let errors = 0
      for (const { method, params } of searches(Math.floor(Number(head) / 2))) {
        const [a, b] = [await rpc(limited[0].url, method, params), await rpc(limited[1].url, method, params)]
        expect(b, `${method} ${JSON.stringify(params)}`).toEqual(a)
        if (a.error) {
          expect(a.error.message).toContain('--ots.search.maxblocks')
          errors++
        }
      }
      expect(errors).toBeGreaterThan(0)
    } finally {
      for (const edge of limited) await edge.close()
    }
  }, 120_000)

  it('edgetrace_touchingBlocks, the stretch a worker scans, is no method a client has', async () => {
    const answer = await rpc(pooled.url, 'edgetrace_touchingBlocks', [devnet.contracts.Token, '0x2', head])
    expect(answer.error).toMatchObject({ code: -32601 })
  })

  it('concurrent block traces (a batch, several clients) go to the workers while one runs here: the same answers', async () => {
    const blocks = Array.from({ length: 6 }, (_, i) => `0x${(Number(head) - i).toString(16)}`)
    const batch = blocks.flatMap((n, i) => [
      { jsonrpc: '2.0', id: 2 * i, method: 'trace_block', params: [n] },
      { jsonrpc: '2.0', id: 2 * i + 1, method: 'debug_traceBlockByNumber', params: [n, { tracer: 'callTracer' }] },
    ])
    const post = (url: string) => postBatch(url, batch)
    // Fresh daemons (the ones above have these blocks cached already), the pool's threads started.
    const fresh = [await start({ threads: 0 }), await start({ threads: 2, minBlocks: 2, warm: true })] as const
    try {
      const a = await post(fresh[0].url)
      const b = await post(fresh[1].url)
      expect(b).toEqual(a)
      expect(a.every((r: { result?: unknown }) => r.result !== undefined)).toBe(true)
      expect(await post(pooled.url)).toEqual(a)
      // Alone, every block and its state come through this daemon; pooled, the batch's calls run two at a
      // time (--rpc.batch.concurrency): one here, the other on a worker, whose blocks come through it.
      expect(fresh[1].upstream.stats().calls).toBeLessThan(fresh[0].upstream.stats().calls * 0.8)
    } finally {
      for (const edge of fresh) await edge.close()
    }
  }, 120_000)

  it('a block trace never waits for a thread to start: while none is up it runs here and starts them for the next', async () => {
    const cold = await start({ threads: 2, minBlocks: 2 })
    const reference = await start({ threads: 0 })
    try {
      const workers = cold.engine.rangeWorkers!
      expect(workers.hasFree()).toBe(false)
      const batch = [0, 1, 2].map((i) => ({
        jsonrpc: '2.0',
        id: i,
        method: 'trace_block',
        params: [`0x${(Number(head) - i).toString(16)}`],
      }))
      const post = (url: string) => postBatch(url, batch)
      expect(await post(cold.url)).toEqual(await post(reference.url))
      const until = Date.now() + 60_000
      while (!workers.hasFree() && Date.now() < until) await new Promise((r) => setTimeout(r, 100))
      expect(workers.hasFree()).toBe(true)
    } finally {
      await cold.close()
      await reference.close()
    }
  }, 120_000)

  it('a range that outlives its deadline ends with the timeout error, its workers stopped, and the server serves on', async () => {
    const hurried = await startEdgetrace({
      upstream: devnet.anvil.url,
      port: 0,
      hardfork: 'prague',
      api: ['eth', 'trace', 'debug'],
      workers: { threads: 2, minBlocks: 2 },
      engine: { evmTimeoutMs: 200 },
    })
    try {
      const started = Date.now()
      const answer = await rpc(hurried.url, 'trace_filter', [{ fromBlock: '0x2', toBlock: head }])
      expect(answer.error).toMatchObject({ code: -32000, message: expect.stringMatching(/timeout/) })
      expect(Date.now() - started).toBeLessThan(10_000)
      expect(await rpcResult(hurried.url, 'eth_chainId')).toBe('0x7a69')
    } finally {
      await hurried.close()
    }
  })

  it('a range past the head is refused as before, and the server keeps serving', async () => {
    const beyond = `0x${(Number(head) + 5).toString(16)}`
    const { a, b } = await both('trace_filter', [{ fromBlock: '0x2', toBlock: beyond }])
    expect(b).toEqual(a)
    expect(a.error).toBeDefined()
    expect(await rpcResult(pooled.url, 'eth_blockNumber')).toBe(head)
  })
})
