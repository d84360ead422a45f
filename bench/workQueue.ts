// Part of `npm run bench`: the shared work queue (--queue.redis, BullMQ). trace_filter over 2,000
// devnet blocks (anvil on loopback behind a counting proxy), cold, on one process's main thread
// against one owner whose stretches 3 worker processes (--queue.work, 1 thread each) take. On this
// 2-core machine 3 workers cannot run faster than 2 cores: the point is that the answer is the same
// byte for byte and what the fleet costs the upstream.
import { type ChildProcess, spawn } from 'node:child_process'
import { startDevnet } from '../src/node/devnet/startDevnet.js'
import { startEdgetrace } from '../src/node/startEdgetrace.js'
import { createProxy } from '../test/src/createProxy.js'
import { rpcResult } from '../test/src/rpc.js'
import { startRedis } from '../tools/fleet/startRedis.js'

const BLOCKS = 2000
const WORKERS = 3

async function main() {
  const [devnet, redis] = await Promise.all([startDevnet(), startRedis()])
  await rpcResult(devnet.anvil.url, 'anvil_mine', [`0x${BLOCKS.toString(16)}`])
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'trace_filter',
    params: [{ fromBlock: '0x3', toBlock: 'latest' }],
  })
  const post = async (url: string) => {
    const started = performance.now()
    const text = await (
      await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    ).text()
    return { text, ms: performance.now() - started }
  }
  const common = { port: 0, hardfork: 'prague', api: ['eth', 'trace', 'debug'] }

  // One process, its main thread.
  const aloneProxy = await createProxy(devnet.anvil.url)
  const alone = await startEdgetrace({ ...common, upstream: aloneProxy.url, workers: { threads: 0 } })
  const one = await post(alone.url)
  await alone.close()

  // An owner and 3 worker processes, each behind its own counting proxy.
  const proxies = await Promise.all(Array.from({ length: WORKERS + 1 }, () => createProxy(devnet.anvil.url)))
  const owner = await startEdgetrace({
    ...common,
    upstream: proxies[0]!.url,
    workers: { threads: 0 },
    queue: { redis: redis.url },
  })
  const children: ChildProcess[] = []
  await Promise.all(
    proxies.slice(1).map(
      (p) =>
        new Promise<void>((ready) => {
          const child = spawn(
            process.execPath,
            [
              '--import',
              'tsx',
              'src/node/cli.ts',
              ...['--upstream', p.url, '--hardfork', 'prague', '--http.port', '0'],
              ...['--queue.redis', redis.url, '--queue.work', '--workers', '1'],
            ],
            { stdio: ['ignore', 'pipe', 'pipe'] },
          )
          children.push(child)
          let out = ''
          const onData = (d: Buffer) => {
            out += d.toString()
            if (/listening: +http/.test(out)) ready()
          }
          child.stdout.on('data', onData)
          child.stderr.on('data', onData)
        }),
    ),
  )
  const fleet = await post(owner.url)
  const requests = (p: (typeof proxies)[number]) => [...p.calls.values()].reduce((a, b) => a + b, 0)
  console.log(`work queue: trace_filter over ${BLOCKS} devnet blocks, cold (anvil on loopback)`)
  console.table([
    {
      run: 'one process, main thread',
      seconds: Number((one.ms / 1000).toFixed(1)),
      upstreamCalls: requests(aloneProxy),
    },
    {
      run: `owner + ${WORKERS} queue workers (1 thread each)`,
      seconds: Number((fleet.ms / 1000).toFixed(1)),
      upstreamCalls: proxies.reduce((n, p) => n + requests(p), 0),
    },
  ])
  console.log(`the same answer byte for byte: ${fleet.text === one.text ? 'yes' : 'NO'} (${one.text.length} bytes)`)
  for (const c of children) c.kill('SIGTERM')
  await owner.close()
  for (const p of [aloneProxy, ...proxies]) await p.stop()
  await redis.stop()
  await devnet.stop()
  if (fleet.text !== one.text) process.exitCode = 1
}

await main()
