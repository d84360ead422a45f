import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { txByLabel } from './src/devnet.js'
import type { ProxyCall, ProxyHooks } from './src/createProxy.js'
import { rpc, rpcResult } from './src/rpc.js'
import { useDevnetBehindProxy } from './src/useDevnetBehindProxy.js'

// ots_searchTransactionsBefore / After with the upstream's own index: anvil's ots_search* (or, when
// it is refused, anvil's trace_filter) names the blocks, edgetrace replays each one, and checks the
// blocks between by the address's verified account. Every answer is compared with the same search
// done without any index (--ots.search.scan: every verified block replayed), which test/otsIndex
// compares with anvil; an index that lies is caught, one that leaves blocks out is corrected.

const env = useDevnetBehindProxy()
let scan: RunningEdgetrace
const NOBODY = '0x00000000000000000000000000000000000c0ffe'
const OTS = ['ots_searchTransactionsBefore', 'ots_searchTransactionsAfter']

beforeAll(async () => {
  scan = await startEdgetrace({
    upstream: env.devnet.anvil.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'ots'],
    engine: { otsSearchIndex: false },
  })
}, 120_000)
afterAll(() => scan?.close())

let edge: RunningEdgetrace | undefined
/** An edgetrace serving ots in front of the fault proxy, the proxy's hooks set to `hooks`. */
async function edgeVia(hooks: ProxyHooks = {}): Promise<RunningEdgetrace> {
  env.proxy.hooks = hooks
  edge = await startEdgetrace({ upstream: env.proxy.url, port: 0, hardfork: 'prague', api: ['eth', 'ots'] })
  return edge
}
afterEach(async () => {
  await edge?.close()
  edge = undefined
})

/** The scan's answer to a search, asked once per file: the devnet does not change, nor does the scan's answer. */
const scanned = new Map<string, Promise<unknown>>()
function scanAnswer(method: string, params: unknown[]): Promise<any> {
  const key = JSON.stringify([method, params])
  if (!scanned.has(key)) scanned.set(key, rpcResult(scan.url, method, params))
  return scanned.get(key)!
}

type Page = { txs: { hash: string; blockNumber: string }[]; firstPage: boolean; lastPage: boolean }
const hashes = (page: Page) => page.txs.map((t) => t.hash)
const addresses = () => [
  ...Object.values(env.devnet.contracts),
  ...env.devnet.accounts.slice(0, 3).map((a) => a.toLowerCase()),
  NOBODY,
]

/** Every page of a search walked both ways, from each end, compared with the scan's answers. */
async function expectSameAsScan(url: string, address: string) {
  for (const size of [1, 3, 25]) {
    for (const [method, blockNum] of [
      ['ots_searchTransactionsBefore', 0],
      ['ots_searchTransactionsAfter', 0],
    ] as const) {
      let at: number = blockNum
      for (let page = 0; page < 40; page++) {
        const [ours, reference] = await Promise.all([
          rpcResult(url, method, [address, at, size]),
          scanAnswer(method, [address, at, size]),
        ])
        expect(ours, `${method}(${address}, ${at}, ${size})`).toEqual(reference)
        const done = method === 'ots_searchTransactionsBefore' ? ours.lastPage : ours.firstPage
        if (done) break
        const blocks = (ours as Page).txs.map((t) => Number(t.blockNumber))
        at = method === 'ots_searchTransactionsBefore' ? Math.min(...blocks) : Math.max(...blocks)
      }
    }
  }
}

describe("with the upstream's ots_search", () => {
  it('answers every page of every devnet address as the scan does', async () => {
    const edge = await edgeVia()
    for (const address of addresses()) await expectSameAsScan(edge.url, address)
    expect(env.proxy.calls.get('ots_searchTransactionsBefore')).toBeGreaterThan(0)
    expect(env.proxy.calls.get('ots_searchTransactionsAfter')).toBeGreaterThan(0)
  }, 300_000)

  it('replays only the blocks the index names, not the whole history', async () => {
    const edge = await edgeVia({})
    const token = env.devnet.contracts.Token!
    const all = (await scanAnswer('ots_searchTransactionsBefore', [token, 0, 25])) as Page
    const newest = [...new Set(all.txs.map((t) => t.blockNumber))].slice(0, 2)
    const before = env.proxy.log.length
    const page = (await rpcResult(edge.url, 'ots_searchTransactionsBefore', [token, 0, 1])) as Page
    expect([page.txs[0]!.blockNumber, page.lastPage]).toEqual([newest[0], false])
    // Blocks fetched: the page's block and the next block with hits (to tell that more pages follow),
    // nothing else of the devnet's history — the blocks between are checked by two proofs each.
    const fetched = env.proxy.log.slice(before).filter((c) => c.method === 'eth_getBlockByHash')
    const numbers = await Promise.all(
      [...new Set(fetched.map((c) => c.params[0] as string))].map(
        async (hash) => (await rpcResult(env.devnet.anvil.url, 'eth_getBlockByHash', [hash, false])).number,
      ),
    )
    expect(numbers.sort()).toEqual([...newest].sort())
    expect(all.txs.length).toBeGreaterThan(3)
  })

  it('finds a block the index leaves out (the account changed there) by replaying the gap', async () => {
    const token = env.devnet.contracts.Token!
    const dropped = txByLabel(env.devnet, 'token transfer (legacy, type 0)')
    const edge = await edgeVia({
      transform: (call: ProxyCall, result: unknown) => {
        if (!OTS.includes(call.method)) return result
        const page = result as Page
        return { ...page, txs: page.txs.filter((t) => Number(t.blockNumber) !== dropped.blockNumber) }
      },
    })
    const ours = await rpcResult(edge.url, 'ots_searchTransactionsBefore', [token, 0, 25])
    expect(hashes(ours)).toContain(dropped.hash)
    expect(ours).toEqual(await scanAnswer('ots_searchTransactionsBefore', [token, 0, 25]))
    const after = await rpcResult(edge.url, 'ots_searchTransactionsAfter', [token, 0, 25])
    expect(after).toEqual(await scanAnswer('ots_searchTransactionsAfter', [token, 0, 25]))
  }, 120_000)

  it('finds the older pages an index hides by saying lastPage early', async () => {
    const token = env.devnet.contracts.Token!
    const edge = await edgeVia({
      transform: (call: ProxyCall, result: unknown) =>
        call.method === 'ots_searchTransactionsBefore' ? { ...(result as Page), lastPage: true } : result,
    })
    await expectSameAsScan(edge.url, token)
  }, 120_000)

  it('refuses an index that names a transaction not touching the address, naming it', async () => {
    const bob = env.devnet.accounts[1]!.toLowerCase()
    const foreign = txByLabel(env.devnet, 'recursion 5 deep')
    const edge = await edgeVia({
      transform: (call: ProxyCall, result: unknown) => {
        if (call.method !== 'ots_searchTransactionsBefore') return result
        const page = result as Page
        return {
          ...page,
          txs: [{ hash: foreign.hash, blockNumber: `0x${foreign.blockNumber.toString(16)}` }, ...page.txs],
        }
      },
    })
    const out = await rpc(edge.url, 'ots_searchTransactionsBefore', [bob, 0, 25])
    expect(out.error).toMatchObject({ code: -32000 })
    expect(out.error.message).toContain(foreign.hash)
    expect(out.error.message).toContain(`block ${foreign.blockNumber}`)
    expect(out.error.message).toContain('ots_search')
  })

  it('refuses an index answer of the wrong shape', async () => {
    const edge = await edgeVia({
      transform: (call: ProxyCall, result: unknown) =>
        call.method === 'ots_searchTransactionsBefore' ? { txs: [{ hash: '0x12', blockNumber: '0x2' }] } : result,
    })
    const out = await rpc(edge.url, 'ots_searchTransactionsBefore', [env.devnet.contracts.Token, 0, 25])
    expect(out.error).toMatchObject({ code: -32000 })
    expect(out.error.message).toContain('malformed')
    // The server keeps serving.
    expect((await rpc(edge.url, 'eth_blockNumber', [])).result).toMatch(/^0x/)
  })
})

describe("with the upstream's trace_filter (its ots_search refused)", () => {
  it('answers every page of every devnet address as the scan does', async () => {
    const edge = await edgeVia({ refuseMethods: OTS })
    const before = env.proxy.calls.get('trace_filter') ?? 0
    for (const address of addresses()) await expectSameAsScan(edge.url, address)
    expect((env.proxy.calls.get('trace_filter') ?? 0) - before).toBeGreaterThan(0)
  }, 300_000)
})

describe('with no index at the upstream', () => {
  it('scans, and asks for neither index again', async () => {
    const edge = await edgeVia({ refuseMethods: [...OTS, 'trace_filter'] })
    const token = env.devnet.contracts.Token!
    const first = await rpcResult(edge.url, 'ots_searchTransactionsBefore', [token, 0, 5])
    expect(first).toEqual(await scanAnswer('ots_searchTransactionsBefore', [token, 0, 5]))
    const asked = env.proxy.log.filter((c) => [...OTS, 'trace_filter'].includes(c.method)).length
    await rpcResult(edge.url, 'ots_searchTransactionsAfter', [token, 0, 5])
    expect(env.proxy.log.filter((c) => [...OTS, 'trace_filter'].includes(c.method)).length).toBe(asked)
  })
})
