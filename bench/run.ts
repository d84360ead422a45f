// npm run bench [-- --latency MS]: what a call costs at the upstream, cold and warm.
// A real anvil node behind a loopback proxy that adds latency to every HTTP request (a remote node);
// edgetrace in front of the proxy. Printed: sequential round trips, upstream requests and calls, wall time.
import { startAnvil } from '../src/node/devnet/startAnvil.js'
import { startEdgetrace } from '../src/node/startEdgetrace.js'
import { createProxy } from '../test/src/createProxy.js'
import { DEV_ACCOUNT, deploy, rpcResult, storageContractInitCode } from '../test/src/rpc.js'

const latencyArg = process.argv.indexOf('--latency')
const LATENCY = latencyArg > 0 ? Number(process.argv[latencyArg + 1]) : 50

const hex = (n: number, bytes: number) => n.toString(16).padStart(bytes * 2, '0')

/**
 * Runtime code that reads `slots` storage slots, the balances of `accounts` addresses, and calls
 * `callee` (which reads its own slot): a call whose state footprint is known up front.
 */
function wideReaderInitCode(slots: number, accounts: number, callee: string): string {
  let code = ''
  for (let i = 0; i < slots; i++) code += `61${hex(i, 2)}5450` // PUSH2 i SLOAD POP
  for (let i = 0; i < accounts; i++) code += `73${hex(0xbe000 + i, 20)}3150` // PUSH20 a BALANCE POP
  code += `6020600060006000600073${callee.slice(2)}5af150` // CALL(gas, callee, 0, 0, 0, 0, 32) POP
  code += '60206000f3' // RETURN its word
  const len = code.length / 2
  const init = `61${hex(len, 2)}80600c6000396000f3`
  return `0x${init}${code}`
}

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
