// npm run bench (or tsx bench/preview.ts [--latency MS]): what a wallet's preview of an ERC-20 swap
// costs at the upstream, beside the plain eth_simulateV1 of the same calls. The devnet (anvil) with
// the scenario contracts of test/src/previewScenarioContracts.ts (a router and its constant-product
// pairs) behind a loopback proxy that adds latency to every HTTP request; a fresh edgetrace (empty
// cache) for each cold run, the same request repeated for the warm one, both at the same block hash.
// The swap: swapExactTokensForTokens of 10 TKA for TKB through the router, the allowance already
// given, and the wallet's usual pair, approve then swap. The preview once with the signals that read
// history off (firstInteractionBlocks 0, newContractDays 0) and once with its defaults. Printed:
// sequential round trips, upstream requests and calls, wall time.
import { startDevnet } from '../src/node/devnet/startDevnet.js'
import { startEdgetrace } from '../src/node/startEdgetrace.js'
import { createProxy } from '../test/src/createProxy.js'
import { deployPreviewScenario } from '../test/src/previewScenarioContracts.js'
import { rpcResult, waitForReceipt } from '../test/src/rpc.js'

const latencyArg = process.argv.indexOf('--latency')
const LATENCY = latencyArg > 0 ? Number(process.argv[latencyArg + 1]) : 50

type Row = { scenario: string; roundTrips: number; requests: number; calls: number; ms: number }
type Call = { from: string; to: string; data: string }

const ETHER = 10n ** 18n
const word = (v: bigint | string) =>
  (typeof v === 'bigint' ? v.toString(16) : v.slice(2).toLowerCase()).padStart(64, '0')

async function main() {
  const devnet = await startDevnet()
  const [deployer, alice] = devnet.accounts as [`0x${string}`, `0x${string}`]
  const s = await deployPreviewScenario(devnet.anvil.url, deployer, [alice])
  // approve(router, amount): 0x095ea7b3; swapExactTokensForTokens(amountIn, 0, [TKA, TKB], alice, deadline): 0x38ed1739.
  const approve: Call = { from: alice, to: s.tokenA, data: `0x095ea7b3${word(s.router)}${word(10n * ETHER)}` }
  const swap: Call = {
    from: alice,
    to: s.router,
    data: `0x38ed1739${word(10n * ETHER)}${word(0n)}${word(0xa0n)}${word(alice)}${word(2n ** 40n)}${word(2n)}${word(s.tokenA)}${word(s.tokenB)}`,
  }
  // The allowance of the first case, given on chain.
  const approved = await rpcResult(devnet.anvil.url, 'eth_sendTransaction', [
    { ...approve, data: `0x095ea7b3${word(s.router)}${word(2n ** 255n)}` },
  ])
  await waitForReceipt(devnet.anvil.url, approved)
  const head = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', ['latest', false])
  const proxy = await createProxy(devnet.anvil.url, { delayMs: LATENCY })
  const rows: Row[] = []

  const cases: { label: string; calls: Call[] }[] = [
    { label: 'ERC-20 swap (allowance given)', calls: [swap] },
    { label: 'approve, then ERC-20 swap', calls: [approve, swap] },
  ]
  const methods: { label: string; request: (calls: Call[]) => [string, unknown[]] }[] = [
    {
      label: 'eth_simulateV1',
      request: (calls) => ['eth_simulateV1', [{ blockStateCalls: [{ calls }] }, { blockHash: head.hash }]],
    },
    {
      label: 'edgetrace_previewTransactions, history signals off',
      request: (calls) => [
        'edgetrace_previewTransactions',
        [calls, { blockHash: head.hash }, { firstInteractionBlocks: 0, newContractDays: 0 }],
      ],
    },
    {
      label: 'edgetrace_previewTransactions, default options',
      request: (calls) => ['edgetrace_previewTransactions', [calls, { blockHash: head.hash }]],
    },
  ]

  for (const c of cases) {
    for (const m of methods) {
      const edge = await startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague' })
      const [method, params] = m.request(c.calls)
      for (const temperature of ['cold', 'warm'] as const) {
        edge.upstream.resetStats()
        const started = performance.now()
        const out = await rpcResult(edge.url, method, params)
        const ms = Math.round(performance.now() - started)
        const statuses =
          method === 'eth_simulateV1'
            ? (out[0].calls as { status: string }[]).map((call) => call.status === '0x1')
            : (out.calls as { status: string }[]).map((call) => call.status === 'success')
        if (statuses.includes(false)) throw new Error(`${c.label}, ${m.label}: a call failed: ${JSON.stringify(out)}`)
        if (method !== 'eth_simulateV1' && out.assetChanges.length !== 3) {
          throw new Error(`${c.label}: expected ether, TKA and TKB: ${JSON.stringify(out.assetChanges)}`)
        }
        rows.push({ scenario: `${temperature} ${m.label} @ block hash, ${c.label}`, ...edge.upstream.stats(), ms })
      }
      await edge.close()
    }
  }

  console.log(`\nedgetrace wallet preview benchmark — upstream latency ${LATENCY} ms per request\n`)
  console.log('| scenario | sequential round trips | upstream requests | upstream calls | wall ms |')
  console.log('|---|---:|---:|---:|---:|')
  for (const r of rows) console.log(`| ${r.scenario} | ${r.roundTrips} | ${r.requests} | ${r.calls} | ${r.ms} |`)
  await proxy.stop()
  await devnet.stop()
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
