// npm run bench (after the call bench) [-- --latency MS]: what an eth_simulateV1 costs at the upstream,
// cold and warm. The devnet (anvil with the demo contracts) behind a loopback proxy that adds latency
// to every HTTP request; a fresh edgetrace for each cold run. Printed: sequential round trips,
// upstream requests and calls, wall time. Target: a cold simulation ≤ 3 sequential round trips, a
// warm one (same block hash) 0 upstream requests.
import { encodeCall } from '../src/node/devnet/abi.js'
import { startDevnet } from '../src/node/devnet/startDevnet.js'
import { startEdgetrace } from '../src/node/startEdgetrace.js'
import { createProxy } from '../test/src/createProxy.js'
import { rpcResult } from '../test/src/rpc.js'

const latencyArg = process.argv.indexOf('--latency')
const LATENCY = latencyArg > 0 ? Number(process.argv[latencyArg + 1]) : 50

type Row = { scenario: string; roundTrips: number; requests: number; calls: number; ms: number }

async function main() {
  const devnet = await startDevnet()
  const [alice, , carol] = devnet.accounts as [`0x${string}`, `0x${string}`, `0x${string}`]
  const token = devnet.contracts.Token!
  const scenarios = devnet.contracts.Scenarios!
  const head = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', ['latest', false])
  const proxy = await createProxy(devnet.anvil.url, { delayMs: LATENCY })
  const rows: Row[] = []

  const cases: { label: string; calls: Record<string, unknown>[] }[] = [
    {
      label: 'ERC-20 transfer',
      calls: [{ from: alice, to: token, data: encodeCall('transfer(address,uint256)', [carol, 5n]) }],
    },
    {
      // A contract pulls tokens from the sender (Token.transferFrom, transfer, balanceOf): a swap's shape.
      label: 'contract pulls tokens (approve, then transferFrom through a contract)',
      calls: [
        { from: alice, to: token, data: encodeCall('approve(address,uint256)', [scenarios, 10n]) },
        { from: alice, to: scenarios, data: encodeCall('pull(address,address,uint256)', [token, alice, 3n]) },
      ],
    },
    {
      label: 'ETH transfer and 20 storage writes',
      calls: [
        { from: alice, to: carol, value: '0xde0b6b3a7640000' },
        { from: alice, to: scenarios, data: encodeCall('fill(uint256)', [20n]) },
      ],
    },
  ]

  for (const c of cases) {
    const edge = await startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague' })
    const params = [{ blockStateCalls: [{ calls: c.calls }], traceTransfers: true }, { blockHash: head.hash }]
    for (const temperature of ['cold', 'warm'] as const) {
      edge.upstream.resetStats()
      const started = performance.now()
      const [block] = await rpcResult(edge.url, 'eth_simulateV1', params)
      const ms = Math.round(performance.now() - started)
      const failed = (block.calls as { status: string }[]).findIndex((call) => call.status !== '0x1')
      if (failed >= 0) throw new Error(`${c.label}: call ${failed} failed: ${JSON.stringify(block.calls[failed])}`)
      const s = edge.upstream.stats()
      rows.push({ scenario: `${temperature} eth_simulateV1 @ block hash, ${c.label}`, ...s, ms })
    }
    await edge.close()
  }

  console.log(`\nedgetrace eth_simulateV1 benchmark — upstream latency ${LATENCY} ms per request\n`)
  console.log('| scenario | sequential round trips | upstream requests | upstream calls | wall ms |')
  console.log('|---|---:|---:|---:|---:|')
  for (const r of rows) console.log(`| ${r.scenario} | ${r.roundTrips} | ${r.requests} | ${r.calls} | ${r.ms} |`)
  const cold = Math.max(...rows.filter((r) => r.scenario.startsWith('cold')).map((r) => r.roundTrips))
  const warm = Math.max(...rows.filter((r) => r.scenario.startsWith('warm')).map((r) => r.requests))
  console.log(`\ncold simulations: at most ${cold} sequential round trips (target: at most 3)`)
  console.log(`warm simulations at a block hash: at most ${warm} upstream requests (target: 0)`)
  await proxy.stop()
  await devnet.stop()
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
