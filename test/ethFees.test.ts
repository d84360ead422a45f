import { beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import { rpc, rpcResult } from './src/rpc.js'
import { useDevnetBehindProxy } from './src/useDevnetBehindProxy.js'

// eth_feeHistory and eth_blobBaseFee from verified headers (and, for rewards, verified transactions
// and receipts): the same answers as anvil's, and an upstream that alters a header or a receipt is
// refused, naming the block.

const env = useDevnetBehindProxy()
let devnet: Devnet
let head: { number: string; hash: string }
const edgeVia = env.edgeVia

beforeAll(async () => {
  ;({ devnet, head } = env)
})

describe('eth_feeHistory and eth_blobBaseFee, verified', () => {
  it("the same answers as anvil's: counts, newest blocks, percentiles", async () => {
    const e = await edgeVia()
    const requests: unknown[][] = [
      ['0x5', 'latest', []],
      ['0x5', 'latest'],
      [5, head.number, [10, 50, 90]],
      ['0x400', 'latest', [0, 25, 50, 75, 100]],
      ['0x1', '0x1', [50]],
      ['0x3', 'earliest', [50]],
    ]
    for (const params of requests) {
      const expected = await rpcResult(devnet.anvil.url, 'eth_feeHistory', params)
      // Without percentiles geth leaves `reward` out (omitempty of a nil slice); anvil sends []. geth is followed.
      if (!Array.isArray(params[2]) || params[2].length === 0) {
        expect(expected.reward ?? []).toEqual([])
        delete expected.reward
      }
      const got = await rpcResult(e.url, 'eth_feeHistory', params)
      // The base fee after the newest block is what its header implies (EIP-1559), which the next
      // block of the chain carries; anvil answers another value there when the newest block is not
      // its head, so that entry is checked against the chain itself.
      const newest = BigInt(got.oldestBlock) + BigInt(got.gasUsedRatio.length) - 1n
      if (newest === 0n) {
        // anvil's block 1 keeps the genesis' base fee; EIP-1559 (geth's CalcBaseFee) lowers an empty
        // genesis' 1 gwei by an eighth.
        expect(got.baseFeePerGas.at(-1)).toBe(`0x${((1_000_000_000n * 7n) / 8n).toString(16)}`)
        expected.baseFeePerGas[expected.baseFeePerGas.length - 1] = got.baseFeePerGas.at(-1)
      } else if (newest < BigInt(head.number)) {
        const next = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', [
          `0x${(newest + 1n).toString(16)}`,
          false,
        ])
        expect(got.baseFeePerGas.at(-1), JSON.stringify(params)).toBe(next.baseFeePerGas)
        expected.baseFeePerGas[expected.baseFeePerGas.length - 1] = next.baseFeePerGas
      }
      expect(got, JSON.stringify(params)).toEqual(expected)
    }
    // Not vacuous: some block pays a tip.
    const all = await rpcResult(e.url, 'eth_feeHistory', ['0x400', 'latest', [100]])
    expect(all.reward.some((r: string[]) => BigInt(r[0]!) > 0n)).toBe(true)
    expect(await rpcResult(e.url, 'eth_blobBaseFee', [])).toBe(await rpcResult(devnet.anvil.url, 'eth_blobBaseFee', []))
  })

  it("bad arguments get geth's words", async () => {
    const e = await edgeVia()
    const cases: [unknown[], number, string][] = [
      [['0x2', 'latest', [50, 10]], -32000, 'invalid reward percentile: #0:50.000000 >= #1:10.000000'],
      [['0x2', 'latest', [101]], -32000, 'invalid reward percentile: 101.000000'],
      [['0x2', 'latest', Array.from({ length: 101 }, (_, i) => i / 2)], -32000, 'over the query limit 100'],
      [['0x2', '0xffffff'], -32000, 'request beyond head block: requested 16777215'],
      [['soon', 'latest'], -32602, 'invalid argument 0'],
      [['0x2', 'latest', ['a']], -32602, 'invalid argument 2'],
    ]
    for (const [params, code, words] of cases) {
      const { result, error } = await rpc(e.url, 'eth_feeHistory', params)
      expect(result, JSON.stringify(params)).toBeUndefined()
      expect(error.code, JSON.stringify(params)).toBe(code)
      expect(error.message, JSON.stringify(params)).toContain(words)
    }
  })

  it('an altered receipt (gas used) is refused when rewards are asked, naming the block', async () => {
    const e = await edgeVia({
      transform: (call, result) =>
        call.method === 'eth_getBlockReceipts' && Array.isArray(result) && result.length > 0
          ? result.map((r: { cumulativeGasUsed: string }) => ({
              ...r,
              cumulativeGasUsed: `0x${(BigInt(r.cumulativeGasUsed) + 1n).toString(16)}`,
            }))
          : result,
    })
    const { result, error } = await rpc(e.url, 'eth_feeHistory', ['0x400', 'latest', [50]])
    expect(result).toBeUndefined()
    expect(error.code).toBe(-32000)
    expect(error.message).toMatch(/^header does not verify: block \d+: the upstream's receipts hash to/)
    expect(error.data.block.hash).toMatch(/^0x[0-9a-f]{64}$/)
    // Without percentiles no receipt is read: the headers alone answer.
    expect((await rpcResult(e.url, 'eth_feeHistory', ['0x400', 'latest'])).baseFeePerGas.length).toBeGreaterThan(1)
  })

  it('an altered header field (base fee) in a range is refused', async () => {
    const e = await edgeVia({
      transform: (call, result) =>
        call.method === 'eth_getBlockByNumber' && call.params[0] === '0x2' && result
          ? { ...(result as object), baseFeePerGas: '0x1' }
          : result,
    })
    const { result, error } = await rpc(e.url, 'eth_feeHistory', ['0x400', 'latest'])
    expect(result).toBeUndefined()
    expect(error.code).toBe(-32000)
    expect(error.message).toContain('block 2')
  })

  it('eth_blobBaseFee: a latest header with its excess blob gas altered is refused', async () => {
    const e = await edgeVia({
      transform: (call, result) =>
        call.method === 'eth_getBlockByNumber' && call.params[0] === 'latest' && result
          ? { ...(result as object), excessBlobGas: '0x4000000' }
          : result,
    })
    const { result, error } = await rpc(e.url, 'eth_blobBaseFee', [])
    expect(result).toBeUndefined()
    expect(error.code).toBe(-32000)
    expect(error.message).toContain('header does not verify')
  })
})
