// Part of `npm run bench`: long ranges on worker threads. A devnet (a real anvil) grown by 1,000
// blocks of one transaction each (token transfers, nested calls, counters); trace_filter over them
// on the main thread alone (the compiled build, as `npx edgetrace` runs), then fanned out to 1, 2 … all cores' worker threads. Printed: wall time
// and the speed-up over the main thread alone (medians of 3 runs, each on a fresh daemon: cold state;
// the worker threads started with the server, as `npx edgetrace` starts them).
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { encodeCall } from '../src/node/devnet/abi.js'
import { startDevnet } from '../src/node/devnet/startDevnet.js'
import { rpcResult, waitForReceipt } from '../test/src/rpc.js'
import { compiledStartEdgetrace } from './compiledStartEdgetrace.js'

const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 1000)
const RUNS = 3

/** CPU milliseconds a process has used so far (Linux: /proc; undefined elsewhere). */
function processCpuMs(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 // utime + stime, at 100 ticks/s
  } catch {
    return undefined
  }
}

async function main() {
  const startEdgetrace = await compiledStartEdgetrace()
  // Every block's state kept in anvil's memory: past its default window it writes states to disk and
  // reads them back for each proof, and the upstream, not edgetrace, would be what is measured.
  const devnet = await startDevnet({ anvil: { args: ['--prune-history', String(BLOCKS + 200)] } })
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
  const rows: { label: string; ms: number; traces: number; cpu: number; upstreamCpu: number | undefined }[] = []
  let reference: string | undefined
  for (const threads of settings) {
    const times: number[] = []
    const cpus: number[] = []
    const upstreamCpus: number[] = []
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
      const cpu = process.cpuUsage()
      const anvilBefore = processCpuMs(devnet.anvil.process.pid)
      const out = (await rpcResult(edge.url, 'trace_filter', [range])) as unknown[]
      times.push(performance.now() - started)
      const used = process.cpuUsage(cpu)
      cpus.push((used.user + used.system) / 1000)
      const anvilAfter = processCpuMs(devnet.anvil.process.pid)
      if (anvilBefore !== undefined && anvilAfter !== undefined) upstreamCpus.push(anvilAfter - anvilBefore)
      await edge.close()
      traces = out.length
      const text = JSON.stringify(out)
      reference ??= text
      if (text !== reference) throw new Error(`trace_filter with ${threads} workers answered differently`)
    }
    times.sort((a, b) => a - b)
    const label = threads === 0 ? 'main thread alone' : `${threads} worker thread${threads > 1 ? 's' : ''}`
    const median = Math.floor(times.length / 2)
    const mid = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[median]!)
    rows.push({
      label,
      ms: Math.round(times[median]!),
      traces,
      cpu: mid(cpus),
      upstreamCpu: upstreamCpus.length === RUNS ? mid(upstreamCpus) : undefined,
    })
  }
  const base = rows[0]!.ms
  const one = rows[1]!.ms
  console.log(
    `\nedgetrace range benchmark — trace_filter over ${blocks} devnet blocks (anvil on this machine, ${cores} cores)\n`,
  )
  console.log(
    '| run | traces | wall ms (median of 3) | blocks/s | vs main thread | vs 1 worker | edgetrace CPU ms (all threads) | anvil CPU ms | cores busy |',
  )
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|')
  for (const r of rows) {
    console.log(
      `| ${r.label} | ${r.traces} | ${r.ms} | ${Math.round((blocks * 1000) / r.ms)} | ${(base / r.ms).toFixed(2)}× | ${(one / r.ms).toFixed(2)}× | ${r.cpu} | ${r.upstreamCpu ?? '—'} | ${((r.cpu + (r.upstreamCpu ?? 0)) / r.ms).toFixed(2)} |`,
    )
  }
  // Block by block: a client tracing each block with debug_traceBlockByNumber (callTracer), four
  // requests in flight; the main daemon runs one and hands the others to the workers.
  const perBlock = Math.min(blocks, 200)
  const numbers = Array.from({ length: perBlock }, (_, i) => `0x${(first + i).toString(16)}`)
  const blockRows: { label: string; ms: number }[] = []
  let blockReference: string | undefined
  for (const threads of [0, cores]) {
    const edge = await startEdgetrace({
      upstream: url,
      port: 0,
      hardfork: 'prague',
      api: ['eth', 'debug'],
      workers: { threads, warm: true },
    })
    const started = performance.now()
    const answers: unknown[] = new Array(perBlock)
    let next = 0
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < perBlock) {
          const i = next++
          answers[i] = await rpcResult(edge.url, 'debug_traceBlockByNumber', [numbers[i], { tracer: 'callTracer' }])
        }
      }),
    )
    blockRows.push({
      label: threads === 0 ? 'main thread alone' : `${threads} worker threads`,
      ms: Math.round(performance.now() - started),
    })
    await edge.close()
    const text = JSON.stringify(answers)
    blockReference ??= text
    if (text !== blockReference)
      throw new Error(`debug_traceBlockByNumber with ${threads} workers answered differently`)
  }
  console.log(
    `\n${perBlock} blocks traced one request each (debug_traceBlockByNumber, callTracer, 4 in flight, cold):\n`,
  )
  console.log('| run | wall ms | blocks/s | vs main thread |')
  console.log('|---|---:|---:|---:|')
  for (const r of blockRows) {
    console.log(
      `| ${r.label} | ${r.ms} | ${Math.round((perBlock * 1000) / r.ms)} | ${(blockRows[0]!.ms / r.ms).toFixed(2)}× |`,
    )
  }
  console.log(
    `\ntarget: 2 worker threads ≥ 1.7× one. The upstream (anvil) runs on the same ${cores} cores: "cores busy" near ${cores}\n` +
      "means the machine is saturated, and the upstream's share of it bounds what another worker can add.",
  )
  await devnet.stop()
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
