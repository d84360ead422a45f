// npm run bench (or tsx bench/logs.ts [--latency MS]): eth_getLogs over 1,000 blocks, verified and passed through.
// The devnet (Token transfers, Scenarios events) and 950 empty blocks mined on it, behind a loopback
// proxy that adds latency to every HTTP request; printed: sequential round trips, upstream requests
// and calls, wall time.
import { isDeepStrictEqual } from 'node:util'
import { startDevnet } from '../src/node/devnet/startDevnet.js'
import { startEdgetrace } from '../src/node/startEdgetrace.js'
import { createProxy } from '../test/src/createProxy.js'
import { rpcResult } from '../test/src/rpc.js'

const latencyArg = process.argv.indexOf('--latency')
const LATENCY = latencyArg > 0 ? Number(process.argv[latencyArg + 1]) : 50
const BLOCKS = 1000n

type Row = { scenario: string; roundTrips: number; requests: number; calls: number; ms: number; logs: number }

async function main() {
  const devnet = await startDevnet()
  await rpcResult(devnet.anvil.url, 'anvil_mine', [`0x${(950).toString(16)}`])
  const head = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', ['latest', false])
  if (BigInt(head.number) < BLOCKS)
    await rpcResult(devnet.anvil.url, 'anvil_mine', [`0x${(BLOCKS - BigInt(head.number)).toString(16)}`])
  const tip = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', ['latest', false])
  const filter = { fromBlock: `0x${(BigInt(tip.number) - BLOCKS + 1n).toString(16)}`, toBlock: tip.number }
  const expected = await rpcResult(devnet.anvil.url, 'eth_getLogs', [filter])
  const proxy = await createProxy(devnet.anvil.url, { delayMs: LATENCY })
  const rows: Row[] = []

  async function measure(scenario: string, unverified: boolean, runs: number) {
    const edge = await startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague', engine: { unverified } })
    for (let i = 0; i < runs; i++) {
      edge.upstream.resetStats()
      const started = performance.now()
      const got = await rpcResult(edge.url, 'eth_getLogs', [filter])
      const ms = Math.round(performance.now() - started)
      if (!isDeepStrictEqual(got, expected)) throw new Error(`${scenario}: edgetrace's logs differ from anvil's`)
      const s = edge.upstream.stats()
      const label = runs > 1 ? `${scenario}, ${i === 0 ? 'cold' : 'warm'}` : scenario
      rows.push({ scenario: label, ...s, ms, logs: (got as unknown[]).length })
    }
    await edge.close()
  }

  await measure(`eth_getLogs over ${BLOCKS} blocks, verified`, false, 2)
  await measure(`eth_getLogs over ${BLOCKS} blocks, --unverified (passed through)`, true, 1)

  console.log(`\neth_getLogs benchmark — upstream latency ${LATENCY} ms per request (anvil behind a loopback proxy)\n`)
  console.log('| scenario | logs | sequential round trips | upstream requests | upstream calls | wall ms |')
  console.log('|---|---:|---:|---:|---:|---:|')
  for (const r of rows)
    console.log(`| ${r.scenario} | ${r.logs} | ${r.roundTrips} | ${r.requests} | ${r.calls} | ${r.ms} |`)
  await proxy.stop()
  await devnet.stop()
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
