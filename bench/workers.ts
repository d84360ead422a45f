// Part of `npm run bench`: long ranges on worker threads. A devnet (a real anvil) grown by 1,000
// blocks of one transaction each (token transfers, nested calls, counters); trace_filter over them
// on the main thread alone (the compiled build, as `npx edgetrace` runs), then fanned out to 1, 2 … all cores' worker threads. Printed: wall time
// and the speed-up over the main thread alone (medians of 3 runs, each on a fresh daemon: cold state;
// the worker threads started with the server, as `npx edgetrace` starts them).
import { availableParallelism } from 'node:os'
import { encodeCall } from '../src/node/devnet/abi.js'
import { startDevnet } from '../src/node/devnet/startDevnet.js'
import { rpcResult, waitForReceipt } from '../test/src/rpc.js'
import { compiledStartEdgetrace } from './compiledStartEdgetrace.js'

const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 1000)
const RUNS = 3

async function main() {
  const startEdgetrace = await compiledStartEdgetrace()
  const devnet = await startDevnet()
  const url = devnet.anvil.url
  const [alice, bob] = devnet.accounts as [`0x${string}`, `0x${string}`]
  const { Token: token, Scenarios: scenarios } = devnet.contracts as Record<string, `0x${string}`>
  const first = Number(await rpcResult(url, 'eth_blockNumber')) + 1
  let last = ''
  for (let i = 0; i < BLOCKS; i++) {
    const holder = `0x${(0xc0000 + i).toString(16).padStart(40, '0')}` as `0x${string}`
    const tx =
      i % 4 === 3
        ? { from: bob, to: scenarios, data: encodeCall('recurse(uint256)', [4]), gas: '0x7a120' }
        : i % 4 === 2
          ? { from: bob, to: scenarios, data: encodeCall('increment()'), gas: '0x30d40' }
          : { from: alice, to: token, data: encodeCall('transfer(address,uint256)', [holder, 1n]), gas: '0x30d40' }
    last = await rpcResult(url, 'eth_sendTransaction', [tx])
  }
  const to = (await waitForReceipt(url, last)).blockNumber as string
  const range = { fromBlock: `0x${first.toString(16)}`, toBlock: to }
  const blocks = Number(to) - first + 1

  const cores = availableParallelism()
  const settings = [0, ...new Set([1, 2, cores])]
  const rows: { label: string; ms: number; traces: number }[] = []
  let reference: string | undefined
  for (const threads of settings) {
    const times: number[] = []
    let traces = 0
    for (let run = 0; run < RUNS; run++) {
      const edge = await startEdgetrace({
        upstream: url,
        port: 0,
        hardfork: 'prague',
        api: ['eth', 'trace'],
        workers: { threads, warm: true },
      })
      const started = performance.now()
      const out = (await rpcResult(edge.url, 'trace_filter', [range])) as unknown[]
      times.push(performance.now() - started)
      await edge.close()
      traces = out.length
      const text = JSON.stringify(out)
      reference ??= text
      if (text !== reference) throw new Error(`trace_filter with ${threads} workers answered differently`)
    }
    times.sort((a, b) => a - b)
    const label = threads === 0 ? 'main thread alone' : `${threads} worker thread${threads > 1 ? 's' : ''}`
    rows.push({ label, ms: Math.round(times[Math.floor(times.length / 2)]!), traces })
  }
  const base = rows[0]!.ms
  const one = rows[1]!.ms
  console.log(
    `\nedgetrace range benchmark — trace_filter over ${blocks} devnet blocks (anvil on this machine, ${cores} cores)\n`,
  )
  console.log('| run | traces | wall ms (median of 3) | blocks/s | vs main thread | vs 1 worker |')
  console.log('|---|---:|---:|---:|---:|---:|')
  for (const r of rows) {
    console.log(
      `| ${r.label} | ${r.traces} | ${r.ms} | ${Math.round((blocks * 1000) / r.ms)} | ${(base / r.ms).toFixed(2)}× | ${(one / r.ms).toFixed(2)}× |`,
    )
  }
  console.log('\ntarget: 2 worker threads ≥ 1.7× one')
  await devnet.stop()
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
