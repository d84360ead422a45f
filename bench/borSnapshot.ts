// npm run bench (tsx bench/borSnapshot.ts [--latency MS] [--workers N]): a Bor validator snapshot
// rebuilt from verified headers. The tests' Bor devnet (test/src/borDevnet.ts, without its
// transactions) grown to 10,300 blocks on a fixture node in a process of its own (an upstream's
// serving is not this process's work), behind a loopback proxy adding latency to every HTTP
// request; edgetrace in front, first with every walk on its main thread, then with N worker threads
// (default one per core, started with the server) recovering the walks' signers in stretches
// (edgetrace_borSigners). Measured: sidechain_getSnapshot at block 200 (cold, from the genesis),
// then at block 10,200 — 10,000 headers past that cached snapshot — then the same again warm, then
// at block 10,100 (884 headers past the snapshot kept at 9,216 on the way). Every
// answer is checked against the independent model of bor's validator set the tests use.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { bytesToHex } from '@ethereumjs/util'
import { startEdgetrace } from '../src/node/startEdgetrace.js'
import { genesis, named, plan, predict, snapshotJson } from '../test/src/borDevnet.js'
import { createSet } from '../test/src/borProposerModel.js'
import { nodeArgsFor } from '../test/src/cliCommand.js'
import { createProxy } from '../test/src/createProxy.js'
import { rpcResult } from '../test/src/rpc.js'

const flag = (name: string) => {
  const at = process.argv.indexOf(name)
  return at > 0 ? Number(process.argv[at + 1]) : undefined
}
const LATENCY = flag('--latency') ?? 50
const THREADS = flag('--workers') ?? availableParallelism()
const BLOCKS = 10_300
const FIRST = 200
const FAR = FIRST + 10_000
/** A walk from the snapshot kept at a multiple of 1,024 on the way to FAR: the usual length of a later walk. */
const NEAR = 10_100

/** The devnet built and served by a fixture node process (tools/fixture-node/cli.ts): its URL once it serves. */
async function startFixtureProcess(dir: string) {
  writeFileSync(join(dir, 'genesis.json'), JSON.stringify(genesis))
  const { keys, validators, outOfTurn } = plan
  writeFileSync(
    join(dir, 'plan.json'),
    JSON.stringify({ keys: keys.map((k) => bytesToHex(k)), blocks: BLOCKS, validators, outOfTurn }),
  )
  const child = spawn(
    process.execPath,
    [
      ...nodeArgsFor('tools/fixture-node/cli.ts'),
      ...['--genesis', join(dir, 'genesis.json'), '--bor.plan', join(dir, 'plan.json'), '--port', '0'],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  const url = await new Promise<string>((done, fail) => {
    const onData = (d: Buffer) => {
      output += d.toString()
      const serving = /serving on (http:\/\/\S+)/.exec(output)
      if (serving) done(serving[1]!)
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('exit', (code) => fail(new Error(`the fixture node exited (${code}):\n${output}`)))
  })
  return { url, close: () => child.kill('SIGTERM') }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'edgetrace-bor-bench-'))
  const built = Date.now()
  const node = await startFixtureProcess(dir)
  const buildMs = Date.now() - built
  const proxy = await createProxy(node.url, { delayMs: LATENCY })
  const predicted = predict({ number: 0, set: createSet(named(0)) }, BLOCKS)
  const hashes = new Map<number, string>()
  for (const n of [FIRST, FAR, FAR + 4, NEAR])
    hashes.set(n, (await rpcResult(node.url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).hash)
  const hash = (n: number) => hashes.get(n)!
  const rows: {
    threads: number
    scenario: string
    roundTrips: number
    requests: number
    calls: number
    all: number
    ms: number
  }[] = []
  try {
    for (const threads of [0, THREADS]) {
      const edge = await startEdgetrace({
        upstream: proxy.url,
        port: 0,
        api: ['eth', 'bor'],
        genesis: genesis as never,
        // Started with the server: the walks measured, not the threads' start.
        workers: threads > 0 ? { threads, warm: true } : { threads: 0 },
      })
      try {
        const measure = async (scenario: string, n: number, byHash = false) => {
          edge.upstream.resetStats()
          const before = proxy.requests
          const started = performance.now()
          const answer = byHash
            ? await rpcResult(edge.url, 'sidechain_getSnapshotAtHash', [hash(n)])
            : await rpcResult(edge.url, 'sidechain_getSnapshot', [`0x${n.toString(16)}`])
          const ms = performance.now() - started
          const want = snapshotJson(n, hash(n), predicted.get(n)!.after)
          if (JSON.stringify(answer) !== JSON.stringify(want))
            throw new Error(`${scenario}: the snapshot differs from the model's`)
          const s = edge.upstream.stats()
          const all = proxy.requests - before
          rows.push({
            threads,
            scenario,
            roundTrips: s.roundTrips,
            requests: s.requests,
            calls: s.calls,
            all,
            ms: Math.round(ms),
          })
        }
        await measure(`cold: block ${FIRST} (walk to the genesis)`, FIRST)
        await measure(`cold: block ${FAR} (10,000 headers past the snapshot at ${FIRST})`, FAR)
        await measure(`warm: block ${FAR} by number`, FAR)
        await measure(`warm: block ${FAR} by hash`, FAR, true)
        await measure(`block ${FAR + 4} (4 headers past a cached snapshot)`, FAR + 4)
        await measure(`cold: block ${NEAR} (${NEAR - 9216} headers past the snapshot kept at 9,216)`, NEAR)
      } finally {
        await edge.close()
      }
    }
  } finally {
    await proxy.stop()
    node.close()
    rmSync(dir, { recursive: true, force: true })
  }
  console.log(
    `\nsidechain_getSnapshot — a Bor devnet of ${BLOCKS} blocks (built in ${Math.round(buildMs / 1000)} s), upstream latency ${LATENCY} ms per request\n`,
  )
  console.log(
    '| worker threads | scenario | sequential round trips | upstream requests | upstream calls | upstream requests, workers too | wall ms |',
  )
  console.log('|---|---|---|---|---|---|---|')
  for (const r of rows)
    console.log(`| ${r.threads} | ${r.scenario} | ${r.roundTrips} | ${r.requests} | ${r.calls} | ${r.all} | ${r.ms} |`)
  console.log('\nEvery snapshot equal to the independent model of bor’s validator set.')
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
