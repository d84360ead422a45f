// npm run bench (or tsx bench/ots.ts [--latency MS] [--blocks N]): the index-less ots_* lookups over a
// long history — ots_getTransactionBySenderAndNonce and ots_getContractCreator of a contract made
// half-way through a devnet of 10,000 mostly empty blocks, behind a loopback proxy that adds latency
// to every HTTP request; printed: sequential round trips (target ≤ 2·log2(blocks) + 4), upstream
// requests and calls, wall time, each answer checked against anvil's own ots_* answer. Then
// ots_searchTransactionsBefore for that contract (3 blocks with hits over the second half of the
// history) three ways: from anvil's own ots_search, from its trace_filter, and scanning every block.
import { isDeepStrictEqual } from 'node:util'
import { startDevnet } from '../src/node/devnet/startDevnet.js'
import { startEdgetrace } from '../src/node/startEdgetrace.js'
import type { EngineOptions } from '../src/exec/createEngine.js'
import { type ProxyHooks, createProxy } from '../test/src/createProxy.js'
import { DEV_ACCOUNT, rpcResult, storageContractInitCode, waitForReceipt } from '../test/src/rpc.js'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const LATENCY = arg('--latency', 50)
const BLOCKS = arg('--blocks', 10_000)

type SearchPage = { txs: { hash: string }[]; firstPage: boolean; lastPage: boolean }
type Row = { scenario: string; roundTrips: number; requests: number; calls: number; ms: number }

async function main() {
  // anvil keeps the state of only its latest blocks unless told to keep more (on disk): without it, a
  // proof at block 1,428 of 10,000 answers "BlockOutOfRangeError".
  const devnet = await startDevnet({ anvil: { args: ['--max-persisted-states', String(BLOCKS * 2)] } })
  const mine = async (n: number) => rpcResult(devnet.anvil.url, 'anvil_mine', [`0x${n.toString(16)}`])
  const head = async () => Number((await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', ['latest', false])).number)
  await mine(Math.max(1, Math.floor(BLOCKS / 2) - (await head())))
  const nonce = Number(await rpcResult(devnet.anvil.url, 'eth_getTransactionCount', [DEV_ACCOUNT, 'latest']))
  const deployHash = await rpcResult(devnet.anvil.url, 'eth_sendTransaction', [
    { from: DEV_ACCOUNT, data: storageContractInitCode(7) },
  ])
  const contract = (await waitForReceipt(devnet.anvil.url, deployHash)).contractAddress as string
  // Two calls into the contract later on: the search's hits are three blocks far apart.
  for (const at of [Math.floor(BLOCKS * 0.75), BLOCKS - 10]) {
    await mine(Math.max(1, at - (await head())))
    const hash = await rpcResult(devnet.anvil.url, 'eth_sendTransaction', [
      { from: DEV_ACCOUNT, to: contract, data: '0x' },
    ])
    await waitForReceipt(devnet.anvil.url, hash)
  }
  await mine(Math.max(1, BLOCKS - (await head())))
  const blocks = await head()
  const proxy = await createProxy(devnet.anvil.url, { delayMs: LATENCY })
  const rows: Row[] = []

  async function measure(
    scenario: string,
    method: string,
    params: unknown[],
    expected: unknown,
    opts: { engine?: Partial<EngineOptions>; hooks?: ProxyHooks; view?: (got: SearchPage) => unknown } = {},
  ) {
    proxy.hooks = { delayMs: LATENCY, ...opts.hooks }
    const edge = await startEdgetrace({
      upstream: proxy.url,
      port: 0,
      hardfork: 'prague',
      api: ['eth', 'ots'],
      engine: opts.engine ?? {},
    })
    for (const run of ['cold', 'warm']) {
      edge.upstream.resetStats()
      const started = performance.now()
      const answer = await rpcResult(edge.url, method, params)
      const got = opts.view ? opts.view(answer) : answer
      const ms = Math.round(performance.now() - started)
      if (!isDeepStrictEqual(got, expected))
        throw new Error(`${scenario}: ${JSON.stringify(got)} differs from anvil's ${JSON.stringify(expected)}`)
      rows.push({ scenario: `${scenario}, ${run}`, ...edge.upstream.stats(), ms })
    }
    await edge.close()
  }

  const byNonce = await rpcResult(devnet.anvil.url, 'ots_getTransactionBySenderAndNonce', [DEV_ACCOUNT, nonce])
  await measure(
    'ots_getTransactionBySenderAndNonce',
    'ots_getTransactionBySenderAndNonce',
    [DEV_ACCOUNT, nonce],
    byNonce,
  )
  const creator = await rpcResult(devnet.anvil.url, 'ots_getContractCreator', [contract])
  // anvil checksums the creator; the reference daemon (Go's common.Address) writes it in lower case.
  await measure('ots_getContractCreator', 'ots_getContractCreator', [contract], {
    ...creator,
    creator: creator.creator.toLowerCase(),
  })

  // The search: compared with anvil's own page by transaction hashes and page flags (its transactions
  // are written in its own shape).
  const view = (page: SearchPage) => ({
    hashes: page.txs.map((t) => t.hash),
    firstPage: page.firstPage,
    lastPage: page.lastPage,
  })
  const search = view(await rpcResult(devnet.anvil.url, 'ots_searchTransactionsBefore', [contract, 0, 25]))
  if (search.hashes.length !== 3) throw new Error(`expected 3 hits, anvil finds ${search.hashes.length}`)
  const params = [contract, 0, 25]
  await measure(
    "ots_searchTransactionsBefore (upstream's ots_search)",
    'ots_searchTransactionsBefore',
    params,
    search,
    {
      view,
    },
  )
  await measure(
    "ots_searchTransactionsBefore (upstream's trace_filter)",
    'ots_searchTransactionsBefore',
    params,
    search,
    {
      view,
      hooks: { refuseMethods: ['ots_searchTransactionsBefore', 'ots_searchTransactionsAfter'] },
    },
  )
  await measure('ots_searchTransactionsBefore (scan, no index)', 'ots_searchTransactionsBefore', params, search, {
    view,
    engine: { otsSearchIndex: false, otsSearchMaxBlocks: BLOCKS * 2 },
  })

  const target = Math.floor(2 * Math.log2(blocks) + 4)
  console.log(`\nots_* without an index — ${blocks} blocks, upstream latency ${LATENCY} ms per request`)
  console.log(`(anvil behind a loopback proxy; target ≤ 2·log2(blocks) + 4 = ${target} sequential round trips)\n`)
  console.log('| scenario | sequential round trips | upstream requests | upstream calls | wall ms |')
  console.log('|---|---:|---:|---:|---:|')
  for (const r of rows) console.log(`| ${r.scenario} | ${r.roundTrips} | ${r.requests} | ${r.calls} | ${r.ms} |`)
  await proxy.stop()
  await devnet.stop()
  const over = rows.filter(
    (r) => r.scenario.startsWith('ots_get') && r.scenario.endsWith('cold') && r.roundTrips > target,
  )
  if (over.length > 0) throw new Error(`over the target: ${over.map((r) => r.scenario).join(', ')}`)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
