// npm run bench [-- --latency MS]: what a call costs at the upstream, cold and warm.
// A real anvil node behind a loopback proxy that adds latency to every HTTP request (a remote node);
// edgetrace in front of the proxy. Printed: sequential round trips, upstream requests and calls, wall time.
import { startAnvil } from '../src/node/devnet/startAnvil.js'
import { startEdgetrace } from '../src/node/startEdgetrace.js'
import { createProxy } from '../test/src/createProxy.js'
import { DEV_ACCOUNT, deploy, rpcResult, storageContractInitCode } from '../test/src/rpc.js'
import { wideReaderInitCode } from '../test/src/wideReader.js'

const latencyArg = process.argv.indexOf('--latency')
const LATENCY = latencyArg > 0 ? Number(process.argv[latencyArg + 1]) : 50

type Row = { scenario: string; roundTrips: number; requests: number; calls: number; ms: number }

async function main() {
  const anvil = await startAnvil()
  const callee = await deploy(anvil.url, storageContractInitCode(7))
  const shapes = [
    { slots: 1, accounts: 0 },
    { slots: 10, accounts: 5 },
    { slots: 50, accounts: 20 },
    { slots: 200, accounts: 50 },
  ]
  const readers: { address: string; label: string }[] = []
  for (const s of shapes) {
    readers.push({
      address: await deploy(anvil.url, wideReaderInitCode(s.slots, s.accounts, callee)),
      label: `${s.slots} slots, ${s.accounts + 3} accounts`,
    })
  }
  await rpcResult(anvil.url, 'evm_mine', [])
  const head = await rpcResult(anvil.url, 'eth_getBlockByNumber', ['latest', false])
  const proxy = await createProxy(anvil.url, { delayMs: LATENCY })
  const rows: Row[] = []

  async function measure(
    scenario: string,
    run: () => Promise<unknown>,
    upstream: { stats(): { roundTrips: number; requests: number; calls: number }; resetStats(): void },
  ) {
    upstream.resetStats()
    const started = performance.now()
    await run()
    const ms = performance.now() - started
    const s = upstream.stats()
    rows.push({ scenario, roundTrips: s.roundTrips, requests: s.requests, calls: s.calls, ms: Math.round(ms) })
  }

  for (const [blockLabel, block] of [
    ['block hash', { blockHash: head.hash }],
    ['block number', head.number],
    ['latest', 'latest'],
  ] as const) {
    for (const reader of readers) {
      // A fresh edgetrace for every cold measurement: nothing cached.
      const edge = await startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague' })
      const call = { from: DEV_ACCOUNT, to: reader.address, data: '0x' }
      const expected = await rpcResult(anvil.url, 'eth_call', [
        call,
        typeof block === 'string' && block !== 'latest' ? block : head.number,
      ])
      let got: unknown
      await measure(
        `cold eth_call @ ${blockLabel}, ${reader.label}`,
        async () => (got = await rpcResult(edge.url, 'eth_call', [call, block])),
        edge.upstream,
      )
      if (got !== expected || got === '0x') throw new Error(`edgetrace answered ${String(got)}, anvil ${expected}`)
      await measure(
        `warm eth_call @ ${blockLabel}, ${reader.label}`,
        () => rpcResult(edge.url, 'eth_call', [call, block]),
        edge.upstream,
      )
      await edge.close()
    }
  }
  // The same function called again at a new block: its remembered footprint is asked for with the header.
  for (const reader of readers) {
    const edge = await startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague' })
    const call = { from: DEV_ACCOUNT, to: reader.address, data: '0x' }
    await rpcResult(edge.url, 'eth_call', [call, 'latest'])
    await rpcResult(anvil.url, 'evm_mine', [])
    let got: unknown
    await measure(
      `repeated eth_call @ a new block (latest), ${reader.label}`,
      async () => (got = await rpcResult(edge.url, 'eth_call', [call, 'latest'])),
      edge.upstream,
    )
    const expected = await rpcResult(anvil.url, 'eth_call', [call, 'latest'])
    if (got !== expected) throw new Error(`edgetrace answered ${String(got)}, anvil ${expected}`)
    await edge.close()
  }
  // An upstream without eth_createAccessList: state is found on demand, one round trip per miss.
  proxy.hooks.refuseMethods = ['eth_createAccessList']
  const edge = await startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague' })
  const wide = readers[1]!
  await measure(
    `cold eth_call @ block hash, ${wide.label}, upstream without eth_createAccessList`,
    () =>
      rpcResult(edge.url, 'eth_call', [{ from: DEV_ACCOUNT, to: wide.address, data: '0x' }, { blockHash: head.hash }]),
    edge.upstream,
  )
  await edge.close()

  const cold = rows
    .filter((r) => r.scenario.startsWith('cold') && !r.scenario.includes('without'))
    .map((r) => r.roundTrips)
    .sort((a, b) => a - b)
  const median = cold[Math.floor(cold.length / 2)]!
  console.log(`\nedgetrace benchmark — upstream latency ${LATENCY} ms per request (anvil behind a loopback proxy)\n`)
  console.log('| scenario | sequential round trips | upstream requests | upstream calls | wall ms |')
  console.log('|---|---:|---:|---:|---:|')
  for (const r of rows) console.log(`| ${r.scenario} | ${r.roundTrips} | ${r.requests} | ${r.calls} | ${r.ms} |`)
  console.log(
    `\ncold calls with eth_createAccessList: round trips max ${cold.at(-1)}, median ${median} (target: at most 3, median 2)`,
  )
  const repeated = rows.filter((r) => r.scenario.startsWith('repeated')).map((r) => r.roundTrips)
  console.log(`repeated calls at a new block: round trips max ${Math.max(...repeated)} (target: 1)`)
  const warmPinned = rows.filter((r) => r.scenario.startsWith('warm') && r.scenario.includes('block hash'))
  const warmMax = Math.max(...warmPinned.map((r) => r.requests))
  console.log(`warm calls at a block hash: at most ${warmMax} upstream requests (target: 0)`)
  console.log('warm calls at a recent block number or a tag: 1 request (the header, to learn which block that is now)')
  await proxy.stop()
  await anvil.stop()
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
