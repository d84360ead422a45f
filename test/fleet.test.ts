import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../src/node/devnet/startDevnet.js'
import { type Fleet, startFleet } from '../tools/fleet/startFleet.js'
import { CLI_ARGS } from './src/cliCommand.js'
import { txByLabel } from './src/devnet.js'
import { rpcResult } from './src/rpc.js'

// The example fleet (npm run fleet, tools/fleet): a real redis-server, 3 edgetrace CLIs sharing it,
// a round-robin load balancer in front. Any server answers any request, answers equal anvil's own,
// and a server killed mid-run costs the clients nothing.

let devnet: Devnet
let fleet: Fleet
beforeAll(async () => {
  devnet = await startDevnet()
  fleet = await startFleet({
    upstream: devnet.anvil.url,
    serverArgs: ['--hardfork', 'prague', '--http.api', 'eth,debug,trace'],
    cli: CLI_ARGS,
  })
}, 120_000)
afterAll(async () => {
  await fleet?.close()
  await devnet?.stop()
})

const metric = async (server: string, line: string) => {
  const text = await (await fetch(`${server}/metrics`)).text()
  const found = text.split('\n').find((l) => l.startsWith(`${line} `))
  return found === undefined ? 0 : Number(found.slice(line.length + 1))
}

describe('npm run fleet: N servers, one Redis, a load balancer', () => {
  it('spreads the requests over the servers, each answer the one anvil gives, the state proven once for all', async () => {
    const txs = devnet.transactions.filter((t) => t.status === 'success').slice(0, 6)
    for (const tx of txs) {
      const shape = (frame: any): unknown => ({
        type: frame.type,
        to: frame.to?.toLowerCase(),
        calls: (frame.calls ?? []).map(shape),
      })
      // The same transaction asked 3 times: each server answers it once.
      for (let i = 0; i < 3; i++) {
        const calls = await rpcResult(fleet.url, 'debug_traceTransaction', [tx.hash, { tracer: 'callTracer' }])
        const anvils = await rpcResult(devnet.anvil.url, 'debug_traceTransaction', [tx.hash, { tracer: 'callTracer' }])
        expect(shape(calls)).toEqual(shape(anvils))
      }
    }
    expect(fleet.balancer.answered).toEqual([6, 6, 6])
    // What one server proved, the others read from Redis: the fleet's shared tier was read and hit.
    let hits = 0
    for (const s of fleet.servers) hits += await metric(s.url, 'edgetrace_cache{tier="shared",kind="hits"}')
    expect(hits).toBeGreaterThan(0)
    const client = new Redis(fleet.redisUrl)
    try {
      expect(await client.dbsize()).toBeGreaterThan(0)
    } finally {
      client.disconnect()
    }
  })

  it('a server killed mid-run (SIGKILL) costs nothing: the balancer sends its share to the others', async () => {
    const tx = txByLabel(devnet, 'nested token calls (transferFrom, transfer, balanceOf)')
    const expected = await rpcResult(fleet.url, 'trace_transaction', [tx.hash])
    fleet.servers[1]!.child.kill('SIGKILL')
    await new Promise((r) => fleet.servers[1]!.child.once('exit', r))
    for (let i = 0; i < 6; i++) expect(await rpcResult(fleet.url, 'trace_transaction', [tx.hash])).toEqual(expected)
  })
})
