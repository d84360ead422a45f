// Part of `npm run bench`: what trace_block costs at the upstream. The embedded devnet (a real
// anvil) with one more block of 100 transactions (token transfers to 100 new holders, counters,
// nested calls); anvil behind a loopback proxy adding latency to every request; edgetrace in front.
// Printed: sequential round trips, upstream requests and wall time of trace_block (cold, warm) and
// trace_replayBlockTransactions, and trace_filter throughput over the devnet's range.
import { encodeCall } from '../src/node/devnet/abi.js'
import { startDevnet } from '../src/node/devnet/startDevnet.js'
import { startEdgetrace } from '../src/node/startEdgetrace.js'
import { createProxy } from '../test/src/createProxy.js'
import { rpcResult, waitForReceipt } from '../test/src/rpc.js'

const latencyArg = process.argv.indexOf('--latency')
const LATENCY = latencyArg > 0 ? Number(process.argv[latencyArg + 1]) : 50
const TXS = 100

async function main() {
  const devnet = await startDevnet()
  const url = devnet.anvil.url
  const [alice, bob] = devnet.accounts as [`0x${string}`, `0x${string}`]
  const { Token: token, Scenarios: scenarios } = devnet.contracts as Record<string, `0x${string}`>
  await rpcResult(url, 'evm_setAutomine', [false])
  const hashes: string[] = []
  for (let i = 0; i < TXS; i++) {
    const holder = `0x${(0xb0000 + i).toString(16).padStart(40, '0')}` as `0x${string}`
    const tx =
      i % 10 === 9
        ? { from: bob, to: scenarios, data: encodeCall('recurse(uint256)', [3]), gas: '0x7a120' }
        : i % 10 === 8
          ? { from: bob, to: scenarios, data: encodeCall('increment()'), gas: '0x30d40' }
          : {
              from: alice,
              to: token,
              data: encodeCall('transfer(address,uint256)', [holder, BigInt(i + 1)]),
              gas: '0x30d40',
            }
    hashes.push(await rpcResult(url, 'eth_sendTransaction', [tx]))
  }
  await rpcResult(url, 'evm_mine', [])
  await rpcResult(url, 'evm_setAutomine', [true])
  const receipt = await waitForReceipt(url, hashes[0]!)
  const block = receipt.blockNumber as string
  const mined = await rpcResult(url, 'eth_getBlockByNumber', [block, false])
  if (mined.transactions.length !== TXS)
    throw new Error(`the block holds ${mined.transactions.length} transactions, not ${TXS}`)

  const proxy = await createProxy(url, { delayMs: LATENCY })
  type Row = { scenario: string; roundTrips: number; requests: number; calls: number; ms: number }
  const rows: Row[] = []
  const measure = async (
    scenario: string,
    edge: Awaited<ReturnType<typeof startEdgetrace>>,
    run: () => Promise<unknown>,
  ) => {
    edge.upstream.resetStats()
    const started = performance.now()
    const out = await run()
    const s = edge.upstream.stats()
    rows.push({
      scenario,
      roundTrips: s.roundTrips,
      requests: s.requests,
      calls: s.calls,
      ms: Math.round(performance.now() - started),
    })
    return out
  }
  const start = (engine: 'ethereumjs' | 'wasm' = 'ethereumjs') =>
    startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague', api: ['eth', 'trace'], engine: { engine } })

  let edge = await start()
  const traces = (await measure(`cold trace_block, ${TXS} transactions`, edge, () =>
    rpcResult(edge.url, 'trace_block', [block]),
  )) as unknown[]
  const anvilTraces = await rpcResult(url, 'trace_block', [block])
  if (traces.length !== anvilTraces.length)
    throw new Error(`trace_block: ${traces.length} traces, anvil ${anvilTraces.length}`)
  await measure(`warm trace_block by number, ${TXS} transactions`, edge, () =>
    rpcResult(edge.url, 'trace_block', [block]),
  )
  await measure(`warm trace_replayBlockTransactions [trace] by hash, ${TXS} transactions`, edge, () =>
    rpcResult(edge.url, 'trace_replayBlockTransactions', [mined.hash, ['trace']]),
  )
  await edge.close()
  // Issue 37: the same warm block on --engine wasm (its answer checked against ethereumjs's).
  edge = await start('wasm')
  const onWasm = await rpcResult(edge.url, 'trace_block', [block])
  if (JSON.stringify(onWasm) !== JSON.stringify(traces)) throw new Error('trace_block on --engine wasm differs')
  await measure(`warm trace_block by number, ${TXS} transactions, --engine wasm`, edge, () =>
    rpcResult(edge.url, 'trace_block', [block]),
  )
  await edge.close()
  edge = await start()
  await measure(`cold trace_replayBlockTransactions [trace, stateDiff], ${TXS} transactions`, edge, () =>
    rpcResult(edge.url, 'trace_replayBlockTransactions', [block, ['trace', 'stateDiff']]),
  )
  await edge.close()

  edge = await start()
  const last = Number(block)
  const filtered = (await measure(`cold trace_filter, blocks 2…${last} (all traces)`, edge, () =>
    rpcResult(edge.url, 'trace_filter', [{ fromBlock: '0x2', toBlock: block }]),
  )) as unknown[]
  const filterRow = rows.at(-1)!
  await edge.close()

  console.log(
    `\nedgetrace trace_* benchmark — upstream latency ${LATENCY} ms per request (anvil behind a loopback proxy)\n`,
  )
  console.log('| scenario | sequential round trips | upstream requests | upstream calls | wall ms |')
  console.log('|---|---:|---:|---:|---:|')
  for (const r of rows) console.log(`| ${r.scenario} | ${r.roundTrips} | ${r.requests} | ${r.calls} | ${r.ms} |`)
  console.log(
    `\ntargets: a cold block of ${TXS} transactions in at most 4 sequential round trips; warm 0 requests (by number: 1, the header that says which block the number is now)`,
  )
  console.log(
    `trace_filter: ${filtered.length} traces from ${last - 1} blocks in ${filterRow.ms} ms (${Math.round((filtered.length * 1000) / filterRow.ms)} traces/s, ${Math.round(((last - 1) * 1000) / filterRow.ms)} blocks/s, cold)`,
  )
  await proxy.stop()
  await devnet.stop()
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
