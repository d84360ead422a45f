import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevnet, type Devnet } from '../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { TRACE_FILTER_MAX_BLOCKS } from '../src/rpc/trace/traceFilter.js'
import { txByLabel } from './src/devnet.js'
import { rpc, rpcResult } from './src/rpc.js'

// trace_filter's limits and progress: a range bound with a clear error, fromBlock > toBlock refused,
// progress lines while a range is traced, count and after applied across blocks.

let devnet: Devnet
let edge: RunningEdgetrace
const progress: string[] = []

beforeAll(async () => {
  devnet = await startDevnet()
  edge = await startEdgetrace({
    upstream: devnet.anvil.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'trace'],
    engine: { traceFilterMaxBlocks: 10 },
    log: (line) => progress.push(line),
    progressEveryMs: 0,
  })
}, 120_000)
afterAll(async () => {
  await edge?.close()
  await devnet?.stop()
})

describe('trace_filter', () => {
  it('reports progress while it traces a range, and applies after and count across blocks', async () => {
    // The ten blocks from the devnet's first transaction on.
    const first = txByLabel(devnet, 'deploy Token').blockNumber
    const range = { fromBlock: `0x${first.toString(16)}`, toBlock: `0x${(first + 9).toString(16)}` }
    const all = await rpcResult(edge.url, 'trace_filter', [range])
    expect(all.length).toBeGreaterThan(17)
    const started = new RegExp(`^trace_filter ${first}…\\d+: \\d+ of \\d+ blocks traced, \\d+ traces sent`)
    expect(progress.some((l) => started.test(l))).toBe(true)
    const page = await rpcResult(edge.url, 'trace_filter', [{ ...range, after: 10, count: 7 }])
    expect(page).toEqual(all.slice(10, 17))
  })
  it('refuses a range above the limit and a reversed range, naming the problem', async () => {
    const head = Number(await rpcResult(devnet.anvil.url, 'eth_blockNumber'))
    const reversed = await rpc(edge.url, 'trace_filter', [{ fromBlock: `0x${head.toString(16)}`, toBlock: '0x2' }])
    expect(reversed.error).toEqual({
      code: -32602,
      message: 'invalid parameters: fromBlock cannot be greater than toBlock',
    })
    const badCount = await rpc(edge.url, 'trace_filter', [{ fromBlock: '0x2', toBlock: '0x3', count: '0x2' }])
    expect(badCount.error?.code).toBe(-32602)
    expect(badCount.error?.message).toMatch(/count must be a non-negative JSON number/)
    // The limit (default TRACE_FILTER_MAX_BLOCKS) set to 10 for this server: 11 blocks are refused.
    expect(TRACE_FILTER_MAX_BLOCKS).toBe(10_000)
    const tooWide = await rpc(edge.url, 'trace_filter', [{ fromBlock: '0x2', toBlock: '0xc' }])
    expect(tooWide.error).toEqual({
      code: -32602,
      message: 'trace_filter covers 11 blocks; at most 10 may be asked at once',
    })
    expect((await rpc(edge.url, 'trace_filter', [{ fromBlock: '0x2', toBlock: '0xb' }])).error).toBeUndefined()
  })

  it('refuses negative and over-int64 block numbers with -32602 naming the argument (trace_filter and trace_block)', async () => {
    const filterError = async (filter: object) => (await rpc(edge.url, 'trace_filter', [filter])).error
    expect(await filterError({ fromBlock: '0x8000000000000000', toBlock: '0x2' })).toEqual({
      code: -32602,
      message: 'invalid argument 0: field "fromBlock": block number larger than int64',
    })
    expect(await filterError({ fromBlock: '0x2', toBlock: 2 ** 63 })).toEqual({
      code: -32602,
      message: 'invalid argument 0: field "toBlock": block number larger than int64',
    })
    expect(await filterError({ fromBlock: -1 })).toEqual({
      code: -32602,
      message: 'invalid argument 0: field "fromBlock": invalid block number -1: expected a non-negative integer',
    })
    expect(await filterError({ toBlock: '-0x1' })).toEqual({
      code: -32602,
      message: 'invalid argument 0: field "toBlock": expected a block number, tag or hash, got string "-0x1"',
    })
    const blockError = async (block: unknown) => (await rpc(edge.url, 'trace_block', [block])).error
    expect(await blockError('0x8000000000000000')).toEqual({
      code: -32602,
      message: 'invalid argument 0: block number larger than int64',
    })
    expect(await blockError(2 ** 63)).toEqual({
      code: -32602,
      message: 'invalid argument 0: block number larger than int64',
    })
    expect(await blockError(-1)).toEqual({
      code: -32602,
      message: 'invalid argument 0: invalid block number -1: expected a non-negative integer',
    })
    expect(await blockError(1.5)).toEqual({
      code: -32602,
      message: 'invalid argument 0: invalid block number 1.5: expected a non-negative integer',
    })
    expect((await rpc(edge.url, 'trace_filter', [{ fromBlock: '0x2', toBlock: '0x2' }])).error).toBeUndefined()
  })
})
