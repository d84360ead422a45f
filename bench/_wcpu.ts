import { execSync } from 'node:child_process'
import { encodeCall } from '../src/node/devnet/abi.js'
import { startDevnet } from '../src/node/devnet/startDevnet.js'
import { rpcResult, waitForReceipt } from '../test/src/rpc.js'
import { compiledStartEdgetrace } from './compiledStartEdgetrace.js'
const startEdgetrace = await compiledStartEdgetrace()
const devnet = await startDevnet()
const url = devnet.anvil.url
const [alice, bob] = devnet.accounts as [`0x${string}`, `0x${string}`]
const { Token: token, Scenarios: scenarios } = devnet.contracts as Record<string, `0x${string}`>
const first = Number(await rpcResult(url, 'eth_blockNumber')) + 1
let last = ''
for (let i = 0; i < 400; i++) {
  const holder = `0x${(0xc0000 + i).toString(16).padStart(40, '0')}` as `0x${string}`
  const tx =
    i % 4 === 3
      ? { from: bob, to: scenarios, data: encodeCall('recurse(uint256)', [4]), gas: '0x7a120' }
      : { from: alice, to: token, data: encodeCall('transfer(address,uint256)', [holder, 1n]), gas: '0x30d40' }
  last = await rpcResult(url, 'eth_sendTransaction', [tx])
}
const to = (await waitForReceipt(url, last)).blockNumber as string
const anvilCpu = () => execSync('ps -C anvil -o time= | tail -1').toString().trim()
for (const threads of [0, 1, 2]) {
  const edge = await startEdgetrace({
    upstream: url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'trace'],
    workers: { threads, warm: true },
  })
  const a0 = anvilCpu()
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  await rpcResult(edge.url, 'trace_filter', [{ fromBlock: `0x${first.toString(16)}`, toBlock: to }])
  const c = process.cpuUsage(c0)
  console.log(
    threads,
    'wall',
    Math.round(performance.now() - t0),
    'node cpu',
    Math.round((c.user + c.system) / 1000),
    'anvil',
    a0,
    '→',
    anvilCpu(),
    JSON.stringify(edge.upstream.stats()),
  )
  await edge.close()
}
await devnet.stop()
