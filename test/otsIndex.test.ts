import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import { USAGE, parseCliArgs } from '../src/node/parseCliArgs.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { txByLabel, withDevnetAndEdgetrace } from './src/devnet.js'
import { DEV_ACCOUNT, rpc, rpcResult } from './src/rpc.js'

// The index-backed ots_* methods answered without an index (binary search over verified state, a
// bounded scan with replay: anvil's own ots_search is not asked, --ots.search.scan), compared with anvil, which serves them natively (ots API level 8).
// anvil's deviations, not followed: its creator is checksummed (Go's common.Address, the reference's,
// marshals lower case), and its search pages write transactions in its own shape and field order
// (ours are geth's RPCTransaction, as eth_getTransactionByHash writes them) — so transactions are
// compared by hash, and pages by firstPage/lastPage.

let devnet: Devnet
let edge: RunningEdgetrace
let stop: () => Promise<void>
let create2Address: string
const NOBODY = '0x00000000000000000000000000000000000c0ffe'

beforeAll(async () => {
  ;({ devnet, edge, stop } = await withDevnetAndEdgetrace({ api: ['eth', 'ots'], engine: { otsSearchIndex: false } }))
  const trace = await rpcResult(devnet.anvil.url, 'debug_traceTransaction', [
    txByLabel(devnet, 'CREATE2').hash,
    { tracer: 'callTracer' },
  ])
  const frame = (trace.calls as { type: string; to: string }[]).find((c) => c.type === 'CREATE2')!
  create2Address = frame.to.toLowerCase()
}, 120_000)
afterAll(() => stop?.())

const both = async (method: string, params: unknown[]) => {
  const [ours, anvils] = await Promise.all([rpc(edge.url, method, params), rpc(devnet.anvil.url, method, params)])
  return { ours, anvils }
}

describe('ots_getTransactionBySenderAndNonce', () => {
  it("finds each of the sender's nonces as anvil does", async () => {
    const count = Number(await rpcResult(devnet.anvil.url, 'eth_getTransactionCount', [DEV_ACCOUNT, 'latest']))
    expect(count).toBeGreaterThan(10)
    for (const nonce of [0, 1, 7, Math.floor(count / 2), count - 1]) {
      const { ours, anvils } = await both('ots_getTransactionBySenderAndNonce', [DEV_ACCOUNT, nonce])
      expect(ours.result, `nonce ${nonce}`).toMatch(/^0x[0-9a-f]{64}$/)
      expect(ours.result).toBe(anvils.result)
      const tx = await rpcResult(edge.url, 'eth_getTransactionByHash', [ours.result])
      expect([tx.from.toLowerCase(), Number(tx.nonce)]).toEqual([DEV_ACCOUNT, nonce])
    }
  })

  it('answers null for a nonce never used', async () => {
    const count = Number(await rpcResult(devnet.anvil.url, 'eth_getTransactionCount', [DEV_ACCOUNT, 'latest']))
    const { ours, anvils } = await both('ots_getTransactionBySenderAndNonce', [DEV_ACCOUNT, count])
    expect(ours.result).toBeNull()
    expect(anvils.result).toBeNull()
    expect((await rpc(edge.url, 'ots_getTransactionBySenderAndNonce', [NOBODY, 0])).result).toBeNull()
  })

  it('answers null for a nonce an EIP-7702 authorization used up (no transaction of that sender), as anvil', async () => {
    // Dev accounts 4 and 5 only signed authorizations (carried by alice's type-4 transactions): each
    // has nonce 1 and sent nothing. Their delegation code was never created either.
    for (const account of devnet.accounts.slice(4, 6)) {
      expect(Number(await rpcResult(devnet.anvil.url, 'eth_getTransactionCount', [account, 'latest']))).toBe(1)
      const { ours, anvils } = await both('ots_getTransactionBySenderAndNonce', [account, 0])
      expect([ours.result, anvils.result]).toEqual([null, null])
      const creator = await both('ots_getContractCreator', [account])
      expect([creator.ours.result, creator.anvils.result]).toEqual([null, null])
    }
  })

  it('names the bad argument', async () => {
    const bad = await rpc(edge.url, 'ots_getTransactionBySenderAndNonce', [DEV_ACCOUNT, '0x1'])
    expect(bad.error).toMatchObject({ code: -32602 })
    expect(bad.error.message).toContain('uint64')
    const missing = await rpc(edge.url, 'ots_getTransactionBySenderAndNonce', [DEV_ACCOUNT])
    expect(missing.error).toMatchObject({ code: -32602, message: 'missing value for required argument 1' })
  })
})

describe('ots_getContractCreator', () => {
  it('finds a contract made by a factory with CREATE2: the factory as creator, as anvil', async () => {
    const { ours, anvils } = await both('ots_getContractCreator', [create2Address])
    expect(ours.result).toEqual({ hash: txByLabel(devnet, 'CREATE2').hash, creator: devnet.contracts.Scenarios })
    expect(ours.result.hash).toBe(anvils.result.hash)
    expect(ours.result.creator).toBe(anvils.result.creator.toLowerCase())
  })

  it('finds a contract deployed by a transaction: its sender as creator', async () => {
    const { ours, anvils } = await both('ots_getContractCreator', [devnet.contracts.Token])
    expect(ours.result).toEqual({ hash: txByLabel(devnet, 'deploy Token').hash, creator: DEV_ACCOUNT })
    expect(ours.result.hash).toBe(anvils.result.hash)
    expect(ours.result.creator).toBe(anvils.result.creator.toLowerCase())
  })

  it('answers null for an address without code', async () => {
    for (const address of [DEV_ACCOUNT, NOBODY]) {
      const { ours, anvils } = await both('ots_getContractCreator', [address])
      expect(ours.result, address).toBeNull()
      expect(anvils.result, address).toBeNull()
    }
  })
})

describe('ots_searchTransactionsBefore / After', () => {
  type Page = { txs: { hash: string; blockNumber: string }[]; receipts: Record<string, unknown>[] }
  const hashes = (page: Page) => page.txs.map((t) => t.hash)
  const flags = (page: { firstPage: boolean; lastPage: boolean }) => [page.firstPage, page.lastPage]

  it('finds the transactions touching a contract in any frame, newest first, as anvil does', async () => {
    const token = devnet.contracts.Token!
    for (const method of ['ots_searchTransactionsBefore', 'ots_searchTransactionsAfter']) {
      for (const size of [1, 2, 25]) {
        const { ours, anvils } = await both(method, [token, 0, size])
        expect(hashes(ours.result), `${method} ${size}`).toEqual(hashes(anvils.result))
        expect(flags(ours.result), `${method} ${size}`).toEqual(flags(anvils.result))
      }
    }
    // The token is reached through Scenarios.pull (an inner frame): that transaction is a hit.
    const all = await rpcResult(edge.url, 'ots_searchTransactionsBefore', [token, 0, 25])
    expect(hashes(all)).toContain(txByLabel(devnet, 'nested token calls (transferFrom, transfer, balanceOf)').hash)
    const numbers = all.txs.map((t: { blockNumber: string }) => Number(t.blockNumber))
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a))
  })

  it('pages on from a block, both ways, as anvil does', async () => {
    const token = devnet.contracts.Token!
    const first = await rpcResult(edge.url, 'ots_searchTransactionsBefore', [token, 0, 2])
    const oldest = Number(first.txs.at(-1).blockNumber)
    const newest = Number(first.txs[0].blockNumber)
    for (const [method, block] of [
      ['ots_searchTransactionsBefore', oldest],
      ['ots_searchTransactionsAfter', newest],
      ['ots_searchTransactionsAfter', oldest],
    ] as const) {
      const { ours, anvils } = await both(method, [token, block, 2])
      expect(hashes(ours.result), `${method} ${block}`).toEqual(hashes(anvils.result))
      expect(flags(ours.result), `${method} ${block}`).toEqual(flags(anvils.result))
    }
  })

  it("writes the reference's receipts: the block's timestamp as a number, cumulativeGasUsed = gasUsed", async () => {
    const page = await rpcResult(edge.url, 'ots_searchTransactionsBefore', [devnet.contracts.Token, 0, 25])
    expect(page.receipts.length).toBe(page.txs.length)
    for (const [i, receipt] of page.receipts.entries()) {
      expect(receipt.transactionHash).toBe(page.txs[i].hash)
      expect(receipt.cumulativeGasUsed).toBe(receipt.gasUsed)
      const block = await rpcResult(edge.url, 'eth_getBlockByHash', [receipt.blockHash, false])
      expect(receipt.timestamp).toBe(Number(block.timestamp))
      expect(Object.keys(receipt)).toEqual(Object.keys(receipt).sort())
    }
  })

  it('refuses a page larger than 25 with the reference words, and bad arguments by name', async () => {
    const big = await rpc(edge.url, 'ots_searchTransactionsBefore', [devnet.contracts.Token, 0, 26])
    expect(big.error).toMatchObject({ code: -32000, message: 'max allowed page size: 25' })
    const hex = await rpc(edge.url, 'ots_searchTransactionsAfter', [devnet.contracts.Token, '0x0', 2])
    expect(hex.error).toMatchObject({ code: -32602 })
    expect(hex.error.message).toContain('uint64')
    const over16 = await rpc(edge.url, 'ots_searchTransactionsAfter', [devnet.contracts.Token, 0, 70_000])
    expect(over16.error.message).toContain('uint16')
  })

  it('answers an address nobody touched with an empty last page', async () => {
    const { ours, anvils } = await both('ots_searchTransactionsBefore', [NOBODY, 0, 5])
    expect(ours.result).toEqual({ txs: [], receipts: [], firstPage: true, lastPage: true })
    expect(flags(ours.result)).toEqual(flags(anvils.result))
  })

  it('takes --ots.search.maxblocks on the command line (default 10000), listed in --help', () => {
    expect(parseCliArgs([]).otsSearchMaxBlocks).toBe(10_000)
    expect(parseCliArgs(['--ots.search.maxblocks', '7']).otsSearchMaxBlocks).toBe(7)
    expect(() => parseCliArgs(['--ots.search.maxblocks', '0'])).toThrow('--ots.search.maxblocks')
    expect(USAGE).toContain('--ots.search.maxblocks')
    expect(parseCliArgs([]).otsSearchScan).toBe(false)
    expect(parseCliArgs(['--ots.search.scan']).otsSearchScan).toBe(true)
    expect(USAGE).toContain('--ots.search.scan')
  })

  it('scans at most --ots.search.maxblocks blocks, then says so', async () => {
    const limited = await startEdgetrace({
      upstream: devnet.anvil.url,
      port: 0,
      hardfork: 'prague',
      api: ['eth', 'ots'],
      engine: { otsSearchMaxBlocks: 5, otsSearchIndex: false },
    })
    try {
      const out = await rpc(limited.url, 'ots_searchTransactionsAfter', [NOBODY, 0, 5])
      expect(out.error).toMatchObject({ code: -32000 })
      expect(out.error.message).toContain('--ots.search.maxblocks')
      const near = await rpc(limited.url, 'ots_searchTransactionsBefore', [devnet.contracts.Token, 5, 5])
      expect(near.result.txs.length).toBeGreaterThan(0)
    } finally {
      await limited.close()
    }
  })
})

describe('a long history of empty blocks', () => {
  it('still finds nonces, creators and transactions past them', async () => {
    await rpcResult(devnet.anvil.url, 'anvil_mine', ['0x200'])
    const hash = await rpcResult(devnet.anvil.url, 'eth_sendTransaction', [
      { from: DEV_ACCOUNT, to: devnet.contracts.Token, data: '0x' },
    ])
    // Mined before anything is asked: anvil's own ots index answers null for a transaction it has
    // not mined yet (a race this test once lost on a loaded machine).
    for (let i = 0; i < 100 && !(await rpcResult(devnet.anvil.url, 'eth_getTransactionReceipt', [hash])); i++)
      await new Promise((done) => setTimeout(done, 20))
    const count = Number(await rpcResult(devnet.anvil.url, 'eth_getTransactionCount', [DEV_ACCOUNT, 'latest']))
    for (const [method, params] of [
      ['ots_getTransactionBySenderAndNonce', [DEV_ACCOUNT, count - 1]],
      ['ots_getTransactionBySenderAndNonce', [DEV_ACCOUNT, 3]],
      ['ots_getContractCreator', [create2Address]],
    ] as const) {
      const { ours, anvils } = await both(method, [...params])
      expect(ours.result, method).toEqual(
        typeof anvils.result === 'object' && anvils.result !== null
          ? { ...anvils.result, creator: anvils.result.creator.toLowerCase() }
          : anvils.result,
      )
    }
    const { ours, anvils } = await both('ots_searchTransactionsBefore', [devnet.contracts.Token, 0, 2])
    expect(hashes(ours.result)).toEqual(hashes(anvils.result))
    expect(hashes(ours.result)).toContain(hash)
  }, 120_000)
  const hashes = (page: { txs: { hash: string }[] }) => page.txs.map((t) => t.hash)
})
