// npm run bench (tsx bench/borSnapshot.ts [--latency MS]): a Bor validator snapshot rebuilt from
// verified headers. The tests' Bor devnet (test/src/borDevnet.ts) grown to 10,300 blocks on a
// fixture node, behind a loopback proxy adding latency to every HTTP request; edgetrace in front.
// Measured: sidechain_getSnapshot at block 200 (cold, from the genesis), then at block 10,200 —
// 10,000 headers past that cached snapshot — then the same again warm. Every answer is checked
// against the independent model of bor's validator set the tests use.
import { startEdgetrace } from '../src/node/startEdgetrace.js'
import { createSet } from '../test/src/borProposerModel.js'
import { genesis, named, predict, snapshotJson } from '../test/src/borDevnet.js'
import { createProxy } from '../test/src/createProxy.js'
import { rpcResult } from '../test/src/rpc.js'
import { startBorDevnet } from '../test/src/startBorDevnet.js'

const latencyArg = process.argv.indexOf('--latency')
const LATENCY = latencyArg > 0 ? Number(process.argv[latencyArg + 1]) : 50
const BLOCKS = 10_300
const FIRST = 200
const FAR = FIRST + 10_000

async function main() {
  const built = Date.now()
  const node = await startBorDevnet(BLOCKS)
  const buildMs = Date.now() - built
  const proxy = await createProxy(node.url, { delayMs: LATENCY })
  const edge = await startEdgetrace({
    upstream: proxy.url,
    port: 0,
    api: ['eth', 'bor'],
    genesis: genesis as never,
    workers: { threads: 0 },
  })
  const predicted = predict({ number: 0, set: createSet(named(0)) }, BLOCKS)
  const hash = (n: number) => node.chain.byNumber(BigInt(n))!.hash
  const rows: { scenario: string; roundTrips: number; requests: number; calls: number; ms: number }[] = []
  try {
    const measure = async (scenario: string, n: number, byHash = false) => {
      edge.upstream.resetStats()
      const started = performance.now()
      const answer = byHash
        ? await rpcResult(edge.url, 'sidechain_getSnapshotAtHash', [hash(n)])
        : await rpcResult(edge.url, 'sidechain_getSnapshot', [`0x${n.toString(16)}`])
      const ms = performance.now() - started
      const want = snapshotJson(n, hash(n), predicted.get(n)!.after)
      if (JSON.stringify(answer) !== JSON.stringify(want))
        throw new Error(`${scenario}: the snapshot differs from the model's`)
      const s = edge.upstream.stats()
      rows.push({ scenario, roundTrips: s.roundTrips, requests: s.requests, calls: s.calls, ms: Math.round(ms) })
    }
    await measure(`cold: block ${FIRST} (walk to the genesis)`, FIRST)
    await measure(`cold: block ${FAR} (10,000 headers past the snapshot at ${FIRST})`, FAR)
    await measure(`warm: block ${FAR} by number`, FAR)
    await measure(`warm: block ${FAR} by hash`, FAR, true)
    await measure(`block ${FAR + 4} (4 headers past a cached snapshot)`, FAR + 4)
  } finally {
    await edge.close()
    await proxy.stop()
    await node.close()
  }
  console.log(
    `\nsidechain_getSnapshot — a Bor devnet of ${BLOCKS} blocks (built in ${Math.round(buildMs / 1000)} s), upstream latency ${LATENCY} ms per request\n`,
  )
  console.log('| scenario | sequential round trips | upstream requests | upstream calls | wall ms |')
  console.log('|---|---|---|---|---|')
  for (const r of rows) console.log(`| ${r.scenario} | ${r.roundTrips} | ${r.requests} | ${r.calls} | ${r.ms} |`)
  console.log('\nEvery snapshot equal to the independent model of bor’s validator set.')
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
