import { RLP } from '@ethereumjs/rlp'
import { bytesToBigInt, bytesToHex, hexToBytes } from '@ethereumjs/util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevnet, type Devnet } from '../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { createProxy } from './src/createProxy.js'
import { rpc, rpcResult } from './src/rpc.js'

// debug_accountAt, debug_getModifiedAccounts* and debug_getRawReceipts against anvil (a real node):
// accounts inside a block compared with anvil's own prestate of each transaction, modified accounts
// with anvil's diffMode prestates of the block's transactions, raw receipts with anvil's receipts
// re-encoded — and a receipt tampered with on the way is refused.

let devnet: Devnet
let edge: RunningEdgetrace
const hex = (n: number) => `0x${n.toString(16)}`

beforeAll(async () => {
  devnet = await startDevnet()
  edge = await startEdgetrace({ upstream: devnet.anvil.url, port: 0, hardfork: 'prague', api: ['eth', 'debug'] })
}, 120_000)
afterAll(async () => {
  await edge?.close()
  await devnet?.stop()
})

const several = () => {
  const block = devnet.transactions.find((t) => t.label.startsWith('block of several'))!.blockNumber
  return { block, txs: devnet.transactions.filter((t) => t.blockNumber === block) }
}

describe('debug_accountAt', () => {
  it('gives every account as each transaction of a block sees it (anvil prestate of that transaction)', async () => {
    const { block, txs } = several()
    const header = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', [hex(block), false])
    for (const [i, tx] of txs.entries()) {
      const pre = await rpcResult(devnet.anvil.url, 'debug_traceTransaction', [tx.hash, { tracer: 'prestateTracer' }])
      for (const [address, account] of Object.entries(pre) as [string, any][]) {
        const ours = await rpcResult(edge.url, 'debug_accountAt', [header.hash, i, address])
        expect(BigInt(ours.balance), `${tx.label} ${address}`).toBe(BigInt(account.balance ?? 0))
        expect(BigInt(ours.nonce), `${tx.label} ${address}`).toBe(BigInt(account.nonce ?? 0))
        expect(ours.code, `${tx.label} ${address}`).toBe(account.code ?? '0x')
      }
    }
  })

  it('answers all zeros for an account that does not exist, null for an unknown block, an error for a bad index', async () => {
    const { block } = several()
    const header = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', [hex(block), false])
    expect(await rpcResult(edge.url, 'debug_accountAt', [header.hash, 0, `0x${'12'.repeat(20)}`])).toEqual({
      balance: '0x0',
      nonce: '0x0',
      code: '0x',
      codeHash: `0x${'0'.repeat(64)}`,
    })
    expect(await rpcResult(edge.url, 'debug_accountAt', [`0x${'ab'.repeat(32)}`, 0, `0x${'12'.repeat(20)}`])).toBeNull()
    expect((await rpc(edge.url, 'debug_accountAt', [header.hash, 99, `0x${'12'.repeat(20)}`])).error?.message).toMatch(
      /transaction index 99 out of range/,
    )
    expect((await rpc(edge.url, 'debug_accountAt', [header.hash, '0x0', `0x${'12'.repeat(20)}`])).error?.code).toBe(
      -32602,
    )
  })
})

describe('debug_getModifiedAccounts', () => {
  it('lists what anvil says the block changed: the diffMode post-states of its transactions, and the system contracts', async () => {
    const blocks = [...new Set(devnet.transactions.map((t) => t.blockNumber))]
    const system = ['0x000f3df6d732807ef1319fb7b8bb8522d0beac02', '0x0000f90827f1c53a10cb7a02335b175320002935']
    for (const block of blocks.slice(0, 12)) {
      const expected = new Set<string>()
      for (const tx of devnet.transactions.filter((t) => t.blockNumber === block)) {
        const diff = await rpcResult(devnet.anvil.url, 'debug_traceTransaction', [
          tx.hash,
          { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
        ])
        for (const a of Object.keys(diff.post)) expected.add(a.toLowerCase())
      }
      for (const a of system)
        if ((await rpcResult(devnet.anvil.url, 'eth_getCode', [a, hex(block)])) !== '0x') expected.add(a)
      const ours = await rpcResult(edge.url, 'debug_getModifiedAccountsByNumber', [hex(block)])
      expect(ours, `block ${block}`).toEqual([...expected].sort())
    }
  })

  it('covers a range both ends included, by number and by hash, and refuses bad ranges', async () => {
    const { block } = several()
    const [a, b] = await Promise.all([
      rpcResult(edge.url, 'debug_getModifiedAccountsByNumber', [hex(block - 1)]),
      rpcResult(edge.url, 'debug_getModifiedAccountsByNumber', [hex(block)]),
    ])
    const both = await rpcResult(edge.url, 'debug_getModifiedAccountsByNumber', [hex(block - 1), hex(block)])
    expect(both).toEqual([...new Set([...a, ...b])].sort())
    const [h1, h2] = await Promise.all(
      [hex(block - 1), hex(block)].map((n) => rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', [n, false])),
    )
    expect(await rpcResult(edge.url, 'debug_getModifiedAccountsByHash', [h1.hash, h2.hash])).toEqual(both)
    const head = Number(await rpcResult(devnet.anvil.url, 'eth_blockNumber'))
    expect(
      (await rpc(edge.url, 'debug_getModifiedAccountsByNumber', [hex(block), hex(block - 1)])).error?.message,
    ).toBe(`start block (${block}) must be less than or equal to end block (${block - 1})`)
    expect((await rpc(edge.url, 'debug_getModifiedAccountsByNumber', [hex(head + 5)])).error?.message).toBe(
      `start block (${head + 5}) is later than the latest block (${head})`,
    )
    expect((await rpc(edge.url, 'debug_getModifiedAccountsByHash', [`0x${'ab'.repeat(32)}`])).error?.message).toBe(
      `start block ${'ab'.repeat(32)} not found`,
    )
  })
})

describe('debug_getRawReceipts', () => {
  it("equals anvil's receipts re-encoded, and refuses a receipt changed on the way", async () => {
    const { block } = several()
    const raw = await rpcResult(edge.url, 'debug_getRawReceipts', [hex(block)])
    const receipts = await rpcResult(devnet.anvil.url, 'eth_getBlockReceipts', [hex(block)])
    expect(raw).toHaveLength(receipts.length)
    // Each raw receipt is type ‖ RLP([status, cumulative gas, bloom, logs]), with anvil's values.
    for (const [i, r] of (raw as string[]).entries()) {
      const bytes = hexToBytes(r as `0x${string}`)
      const type = Number(receipts[i].type)
      if (type !== 0) expect(bytes[0]).toBe(type)
      const [status, cumulative, bloom, logs] = RLP.decode(type === 0 ? bytes : bytes.subarray(1)) as unknown as [
        Uint8Array,
        Uint8Array,
        Uint8Array,
        Uint8Array[][],
      ]
      expect(bytesToBigInt(status)).toBe(BigInt(receipts[i].status))
      expect(bytesToBigInt(cumulative)).toBe(BigInt(receipts[i].cumulativeGasUsed))
      expect(bytesToHex(bloom)).toBe(receipts[i].logsBloom)
      expect(
        logs.map(([address, topics, data]) => ({
          address: bytesToHex(address as Uint8Array),
          topics: (topics as unknown as Uint8Array[]).map((t) => bytesToHex(t)),
          data: bytesToHex(data as Uint8Array),
        })),
      ).toEqual(receipts[i].logs.map((l: any) => ({ address: l.address, topics: l.topics, data: l.data })))
    }
    const proxy = await createProxy(devnet.anvil.url, {
      transform: (call, result: any) => {
        if (call.method === 'eth_getBlockReceipts' && Array.isArray(result) && result[0])
          result[0].cumulativeGasUsed = '0x1'
        return result
      },
    })
    const lying = await startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague', api: ['eth', 'debug'] })
    try {
      const out = await rpc(lying.url, 'debug_getRawReceipts', [hex(block)])
      expect(out.error?.message).toMatch(/receipts hash to another root than the header's receiptsRoot$/)
      expect(out.error?.data).toMatchObject({
        expectedRoot: expect.stringMatching(/^0x/),
        gotRoot: expect.stringMatching(/^0x/),
      })
    } finally {
      await lying.close()
      await proxy.stop()
    }
  })
})
