// Part of `npm run bench`: what a fleet gains from the shared verified cache (--cache.redis). The
// embedded devnet (a real anvil) with BLOCKS more blocks of 5 transactions each; a real
// redis-server (Debian's; tools/fleet/startRedis.ts); 3 edgetrace servers, each in front of anvil
// through its own proxy adding latency. The same 200 cold trace requests (each block traced by 5
// tracers) go round-robin to the 3 servers, as a load balancer sends them, one per server at a time:
// first with 3 independent servers, then with 3 sharing one Redis. Printed: upstream requests (all,
// and those for state: eth_getProof, eth_getCode), wall time, and Redis memory per 1,000 traced blocks.
import { Redis } from 'ioredis'
import { encodeCall } from '../src/node/devnet/abi.js'
import { startDevnet } from '../src/node/devnet/startDevnet.js'
import { startEdgetrace } from '../src/node/startEdgetrace.js'
import { createProxy } from '../test/src/createProxy.js'
import { rpcResult, waitForReceipt } from '../test/src/rpc.js'
import { startRedis } from '../tools/fleet/startRedis.js'

const latencyArg = process.argv.indexOf('--latency')
const LATENCY = latencyArg > 0 ? Number(process.argv[latencyArg + 1]) : 20
const BLOCKS = 40
const SERVERS = 3
const TRACERS: ((block: string) => [string, unknown[]])[] = [
  (b) => ['debug_traceBlockByNumber', [b, { tracer: 'callTracer' }]],
  (b) => ['debug_traceBlockByNumber', [b, { tracer: 'prestateTracer' }]],
  (b) => ['debug_traceBlockByNumber', [b, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]],
  (b) => ['debug_traceBlockByNumber', [b, { disableStorage: true, disableStack: true }]],
  (b) => ['trace_replayBlockTransactions', [b, ['trace', 'stateDiff']]],
]

async function main() {
  const [devnet, redis] = await Promise.all([startDevnet(), startRedis()])
  const url = devnet.anvil.url
  const [alice, bob] = devnet.accounts as [`0x${string}`, `0x${string}`]
  const { Token: token, Scenarios: scenarios } = devnet.contracts as Record<string, `0x${string}`>
  // BLOCKS blocks of 5 transactions: token transfers to new holders, a counter, nested calls.
  const blocks: string[] = []
  await rpcResult(url, 'evm_setAutomine', [false])
  for (let b = 0; b < BLOCKS; b++) {
    let first = ''
    for (let i = 0; i < 5; i++) {
      const holder = `0x${(0xc0000 + b * 5 + i).toString(16).padStart(40, '0')}` as `0x${string}`
      const tx =
        i === 4
          ? { from: bob, to: scenarios, data: encodeCall('recurse(uint256)', [3]), gas: '0x7a120' }
          : i === 3
            ? { from: bob, to: scenarios, data: encodeCall('increment()'), gas: '0x30d40' }
            : { from: alice, to: token, data: encodeCall('transfer(address,uint256)', [holder, 1n]), gas: '0x30d40' }
      const hash = await rpcResult(url, 'eth_sendTransaction', [tx])
      first ||= hash
    }
    await rpcResult(url, 'evm_mine', [])
    blocks.push((await waitForReceipt(url, first)).blockNumber)
  }
  await rpcResult(url, 'evm_setAutomine', [true])
  // The same 200 requests for both fleets: each block by every tracer, blocks interleaved.
  const requests = TRACERS.flatMap((tracer) => blocks.map((b) => tracer(b)))
  const client = new Redis(redis.url)

  const fleet = async (shared: boolean) => {
    const members = await Promise.all(
      Array.from({ length: SERVERS }, async () => {
        const proxy = await createProxy(url, { delayMs: LATENCY })
        const edge = await startEdgetrace({
          upstream: proxy.url,
          port: 0,
          hardfork: 'prague',
          api: ['eth', 'debug', 'trace'],
          ...(shared ? { cacheRedis: redis.url } : {}),
        })
        return { proxy, edge }
      }),
    )
    const memoryBefore = Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1])
    const started = performance.now()
    // One lane per server: request i goes to server i mod 3.
    await Promise.all(
      members.map(async (m, lane) => {
        for (let i = lane; i < requests.length; i += SERVERS) {
          const [method, params] = requests[i]!
          await rpcResult(m.edge.url, method, params)
        }
      }),
    )
    const ms = performance.now() - started
    for (const m of members) await m.edge.engine.persistent?.flush()
    const memoryAfter = Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1])
    const count = (methods?: string[]) =>
      members.reduce(
        (n, m) =>
          n + [...m.proxy.calls].filter(([k]) => !methods || methods.includes(k)).reduce((a, [, c]) => a + c, 0),
        0,
      )
    const row = {
      fleet: shared ? '3 servers, one shared Redis' : '3 independent servers',
      requests: count(),
      stateRequests: count(['eth_getProof', 'eth_getCode']),
      seconds: Number((ms / 1000).toFixed(1)),
      redisMiBPer1000Blocks: shared
        ? Number(((((memoryAfter - memoryBefore) / BLOCKS) * 1000) / 2 ** 20).toFixed(1))
        : '—',
      redisKeys: shared ? await client.dbsize() : '—',
    }
    for (const m of members) {
      await m.edge.close()
      await m.proxy.stop()
    }
    return row
  }

  await client.flushdb()
  const rows = [await fleet(false), await fleet(true)]
  console.log(
    `shared cache: ${requests.length} cold trace requests (${BLOCKS} blocks of 5 transactions, each by ${TRACERS.length} tracers), round-robin over ${SERVERS} servers, ${LATENCY} ms upstream latency`,
  )
  console.table(rows)
  console.log(
    'Independent servers each prove the state of the blocks they are sent; sharing, each block is proven once for all (its trie nodes, code and header kept in Redis, each checked when read). On this 2-core machine the wall time is bound by the CPU as much as by the latency.',
  )
  client.disconnect()
  await redis.stop()
  await devnet.stop()
}

await main()
