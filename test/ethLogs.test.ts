import { beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import type { Proxy } from './src/createProxy.js'
import { rpc, rpcResult } from './src/rpc.js'
import { flipHexDigit, useDevnetBehindProxy } from './src/useDevnetBehindProxy.js'

// eth_getLogs verified: every log served comes from receipts checked against their block's
// receiptsRoot, the blocks read are chosen by the verified headers' logsBloom (no false negatives),
// and the answers equal anvil's own. An upstream that drops or alters logs in its eth_getLogs answer
// changes nothing (that answer is never used); one that alters a receipt or a header is refused.

const env = useDevnetBehindProxy()
let devnet: Devnet
let proxy: Proxy
let head: { number: string; hash: string }
const edgeVia = env.edgeVia
const flip = flipHexDigit
type Log = { address: string; topics: string[]; data: string; blockNumber: string; blockHash: string }
let all: Log[]

beforeAll(async () => {
  ;({ devnet, proxy, head } = env)
  all = await rpcResult(devnet.anvil.url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: head.number }])
})

describe('eth_getLogs: the same answers as anvil, from verified receipts', () => {
  it('the devnet emits logs of several addresses and topics (the filters below are not vacuous)', () => {
    expect(all.length).toBeGreaterThan(3)
    expect(new Set(all.map((l) => l.address)).size).toBeGreaterThan(1)
    expect(new Set(all.map((l) => l.blockNumber)).size).toBeGreaterThan(1)
  })

  it('every kind of filter: range, tags, block hash, address (one, a list), topics (positional, null, alternatives)', async () => {
    const e = await edgeVia()
    const token = devnet.contracts.Token!.toLowerCase()
    const withTopics = all.find((l) => l.topics.length >= 2)!
    const other = all.find((l) => l.topics[0] !== withTopics.topics[0] && l.topics.length > 0)!
    const filters: Record<string, unknown>[] = [
      { fromBlock: '0x0', toBlock: head.number },
      { fromBlock: '0x0' },
      { fromBlock: 'earliest', toBlock: 'latest' },
      {},
      { fromBlock: withTopics.blockNumber, toBlock: withTopics.blockNumber },
      { blockHash: withTopics.blockHash },
      { fromBlock: '0x0', address: token },
      { fromBlock: '0x0', address: [token, other.address] },
      { fromBlock: '0x0', address: '0x00000000000000000000000000000000000000aa' },
      { fromBlock: '0x0', topics: [withTopics.topics[0]] },
      { fromBlock: '0x0', topics: [null, withTopics.topics[1]] },
      { fromBlock: '0x0', topics: [[withTopics.topics[0], other.topics[0]]] },
      { fromBlock: '0x0', topics: [[withTopics.topics[0], null]] },
      { fromBlock: '0x0', topics: [withTopics.topics[0], null] },
      { fromBlock: '0x0', address: other.address, topics: [withTopics.topics[0]] },
      { fromBlock: '0x0', topics: [`0x${'ab'.repeat(32)}`] },
    ]
    for (const filter of filters) {
      const expected = await rpcResult(devnet.anvil.url, 'eth_getLogs', [filter])
      expect(await rpcResult(e.url, 'eth_getLogs', [filter]), JSON.stringify(filter)).toEqual(expected)
    }
    // More positions than a log has topics: geth (filterLogs) leaves the log out, even when the extra
    // positions are null; anvil keeps it — geth is followed here.
    const fourPositions = [withTopics.topics[0], null, null, null]
    expect(all.some((l) => l.topics[0] === withTopics.topics[0] && l.topics.length < 4)).toBe(true)
    expect(await rpcResult(e.url, 'eth_getLogs', [{ fromBlock: '0x0', topics: fourPositions }])).toEqual(
      all.filter((l) => l.topics[0] === withTopics.topics[0] && l.topics.length >= 4),
    )
    // Not vacuous: the filters above select something and leave something out.
    const some = await rpcResult(e.url, 'eth_getLogs', [{ fromBlock: '0x0', address: token }])
    expect(some.length).toBeGreaterThan(0)
    expect(some.length).toBeLessThan(all.length)
  })

  it('bad filters get -32602 in geth’s words; range errors and an unknown block hash in the reference daemon’s', async () => {
    const e = await edgeVia()
    const cases: [unknown, string][] = [
      [{ blockHash: head.hash, fromBlock: '0x0' }, 'cannot specify both BlockHash and FromBlock/ToBlock'],
      [{ fromBlock: 'pending' }, 'pending logs are not supported'],
      [{ fromBlock: '0x0', toBlock: '0xffffff' }, 'block range extends beyond current head block'],
      [{ topics: [null, null, null, null, null] }, 'exceed max topics'],
      [{ topics: [7] }, 'invalid topic(s)'],
      [{ topics: ['0x12'] }, 'hex has invalid length 1 after decoding; expected 32 for topic'],
      [{ address: '0x12' }, 'invalid address: hex has invalid length 1 after decoding; expected 20 for address'],
      [{ address: ['0x00000000000000000000000000000000000000aa', 5] }, 'non-string address at index 1'],
      [{ address: 5 }, 'invalid addresses in query'],
      [{ fromBlock: 'soon' }, 'field "fromBlock"'],
      ['0x1', 'invalid argument 0'],
    ]
    for (const [filter, words] of cases) {
      const { result, error } = await rpc(e.url, 'eth_getLogs', [filter])
      expect(result, JSON.stringify(filter)).toBeUndefined()
      expect(error.code, JSON.stringify(filter)).toBe(-32602)
      expect(error.message, JSON.stringify(filter)).toContain(words)
    }
    // A reversed range: the execution-apis spec's and geth's invalid-params error (eth/filters
    // errInvalidBlockRange), also when an end is a tag resolved first.
    for (const filter of [
      { fromBlock: '0x3', toBlock: '0x2' },
      { fromBlock: 'latest', toBlock: '0x0' },
    ]) {
      const { error } = await rpc(e.url, 'eth_getLogs', [filter])
      expect(error, JSON.stringify(filter)).toEqual({ code: -32602, message: 'invalid block range params' })
    }
    // The reference daemon (rpc/jsonrpc/eth_receipts.go GetLogs): a range starting past the head (no
    // logs, no error), an unknown block hash.
    expect(await rpcResult(e.url, 'eth_getLogs', [{ fromBlock: '0xffffff' }])).toEqual([])
    const unknown = await rpc(e.url, 'eth_getLogs', [{ blockHash: `0x${'12'.repeat(32)}` }])
    expect(unknown.error).toEqual({ code: -32000, message: `block not found: ${'12'.repeat(32)}` })
    expect(await rpcResult(e.url, 'eth_chainId', [])).toMatch(/^0x/)
  })
})

describe('eth_getLogs against a lying upstream', () => {
  it("a log dropped from or altered in the upstream's eth_getLogs answer changes nothing: the answer is the verified one", async () => {
    const dropped: string[] = []
    const e = await edgeVia({
      transform: (call, result) => {
        if (call.method !== 'eth_getLogs' || !Array.isArray(result)) return result
        dropped.push('x')
        const [first, ...rest] = result as Log[]
        return rest.map((l) => ({ ...l, data: flip(l.data), address: first!.address }))
      },
    })
    const filter = { fromBlock: '0x0', toBlock: head.number }
    expect(await rpcResult(e.url, 'eth_getLogs', [filter])).toEqual(all)
    // Through the same proxy without edgetrace, the upstream's answer is indeed altered and short.
    const raw = await rpcResult(proxy.url, 'eth_getLogs', [filter])
    expect(raw.length).toBe(all.length - 1)
    expect(dropped.length).toBe(1)
  })

  it('an altered log in a receipt is refused, naming the block', async () => {
    const target = all[0]!
    const e = await edgeVia({
      transform: (call, result) => {
        if (call.method !== 'eth_getBlockReceipts' || !Array.isArray(result)) return result
        return result.map((r: { logs: Log[] }) => ({
          ...r,
          logs: r.logs.map((l) => (l.blockHash === target.blockHash ? { ...l, data: flip(l.data) } : l)),
        }))
      },
    })
    const { result, error } = await rpc(e.url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: head.number }])
    expect(result).toBeUndefined()
    expect(error.code).toBe(-32000)
    expect(error.message).toContain(`block ${BigInt(target.blockNumber)}: `)
    expect(error.message).toContain('receiptsRoot')
    expect(error.data.block).toEqual({ number: target.blockNumber, hash: target.blockHash })
    expect(await rpcResult(e.url, 'eth_chainId', [])).toMatch(/^0x/)
  })

  it("a header of the range from another chain (the upstream's block by number swapped) is refused, naming the block", async () => {
    const swapped = '0x2'
    const e = await edgeVia({
      transform: (call, result) => {
        if (call.method !== 'eth_getBlockByNumber' || call.params[0] !== swapped) return result
        return null
      },
    })
    // Answering the number with nothing: the range cannot be read.
    const gone = await rpc(e.url, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: head.number }])
    expect(gone.result).toBeUndefined()
    await e.close()
    const three = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', ['0x3', false])
    const e2 = await edgeVia({
      transform: (call, result) =>
        call.method === 'eth_getBlockByNumber' && call.params[0] === swapped ? three : result,
    })
    const { result, error } = await rpc(e2.url, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: head.number }])
    expect(result).toBeUndefined()
    expect(error.code).toBe(-32000)
    expect(error.message).toContain('block 2')
    expect(error.message).toContain('is not the parent')
  })

  it('with --unverified, eth_getLogs is passed through as it was sent', async () => {
    const e = await edgeVia(
      {
        transform: (call, result) =>
          call.method === 'eth_getLogs' && Array.isArray(result) ? result.slice(1) : result,
      },
      { unverified: true },
    )
    const filter = { fromBlock: '0x0', toBlock: head.number }
    expect(await rpcResult(e.url, 'eth_getLogs', [filter])).toEqual(all.slice(1))
  })
})

describe('eth_getLogs over long ranges', () => {
  it('1,000 blocks: the headers are fetched in a few round trips, not one per block; more than the bound is refused', async () => {
    await rpcResult(devnet.anvil.url, 'anvil_mine', ['0x3e8'])
    const tip = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', ['latest', false])
    const from = `0x${(BigInt(tip.number) - 999n).toString(16)}`
    const e = await edgeVia()
    e.upstream.resetStats()
    const filter = { fromBlock: from, toBlock: tip.number }
    expect(await rpcResult(e.url, 'eth_getLogs', [filter])).toEqual(
      await rpcResult(devnet.anvil.url, 'eth_getLogs', [filter]),
    )
    const { calls, roundTrips } = e.upstream.stats()
    expect(calls).toBeGreaterThanOrEqual(1000)
    expect(roundTrips).toBeLessThanOrEqual(15)
    const whole = await rpcResult(e.url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: tip.number }])
    expect(whole).toEqual(all)

    // The bound (10,000 blocks by default; mining that many on anvil takes minutes, so a lower one here).
    await e.close()
    const bounded = await edgeVia({}, { getLogsMaxBlocks: 999 })
    const far = await rpc(bounded.url, 'eth_getLogs', [filter])
    expect(far.error?.code).toBe(-32602)
    expect(far.error?.message).toContain('exceed maximum block range 999')
    expect(
      await rpcResult(bounded.url, 'eth_getLogs', [{ ...filter, fromBlock: `0x${(BigInt(from) + 1n).toString(16)}` }]),
    ).toEqual(
      await rpcResult(devnet.anvil.url, 'eth_getLogs', [
        { ...filter, fromBlock: `0x${(BigInt(from) + 1n).toString(16)}` },
      ]),
    )
  }, 120_000)
})
