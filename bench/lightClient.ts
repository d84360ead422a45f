// npm run bench, or alone: tsx bench/lightClient.ts [--latency MS] [--far BLOCKS]
// The consensus light client (src/chain/beacon) against the fixture beacon chain served over HTTP on
// loopback, each Beacon API request held `latency` ms: bootstrap to the first verified head, catching
// up three sync-committee periods, and one new head — requests, sequential round trips, wall time
// and CPU. Then the BLS check of one mainnet-sized update (512 signers): the cost every head pays.
// Then blocks far below the anchored head (1, 100, 8,192, 20,000 and `--far`, default 100,000, back)
// proven through EIP-2935's history contract on a fixture node's chain of empty Prague blocks that
// long: the execution upstream's sequential round trips and calls, each measured.
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { slotsPerPeriod } from '../src/chain/beacon/beaconConfig.js'
import { createLightClient } from '../src/chain/beacon/createLightClient.js'
import { verifySyncCommitteeSignature } from '../src/chain/beacon/verifySyncCommitteeSignature.js'
import { type BeaconApi, createBeaconApi } from '../src/upstream/createBeaconApi.js'
import { connectLightClient } from '../src/chain/beacon/connectLightClient.js'
import { createConsensusAnchor } from '../src/chain/beacon/createConsensusAnchor.js'
import { createEdgetrace } from '../src/createEdgetrace.js'
import { createUpstream } from '../src/upstream/createUpstream.js'
import { startFixtureNode } from '../tools/fixture-node/startFixtureNode.js'
import { createBeaconFixture, executionPayloadHeaderOf } from '../test/src/beaconFixture.js'
import { HISTORY_GENESIS } from '../test/src/historyGenesis.js'

const at = process.argv.indexOf('--latency')
const LATENCY_MS = at > 0 ? Number(process.argv[at + 1]) : 50
const farAt = process.argv.indexOf('--far')
const FAR = farAt > 0 ? Number(process.argv[farAt + 1]) : 100_000

const fixture = createBeaconFixture()
const served = await fixture.serve()
let requests = 0
const api: BeaconApi = {
  url: served.url,
  async get(path, signal) {
    requests++
    await new Promise((resolve) => setTimeout(resolve, LATENCY_MS))
    return createBeaconApi(served.url).get(path, signal)
  },
}

async function measure(label: string, run: () => Promise<void>) {
  const before = requests
  const cpu = process.cpuUsage()
  const started = performance.now()
  await run()
  const wall = performance.now() - started
  const used = process.cpuUsage(cpu)
  // The client sends one request at a time: its requests are its sequential round trips.
  const n = requests - before
  return {
    label,
    requests: n,
    roundTrips: n,
    wallMs: Math.round(wall),
    cpuMs: Math.round((used.user + used.system) / 1000),
  }
}

fixture.head = 40
const lc = createLightClient({
  api,
  config: fixture.config,
  checkpoint: fixture.rootAt(8),
  genesisTime: fixture.genesisTime,
  secondsPerSlot: fixture.secondsPerSlot,
  now: fixture.now,
})
const rows = [await measure('bootstrap to the first verified head (same period)', () => lc.sync())]
fixture.head = 3 * slotsPerPeriod(fixture.config) + 30
rows.push(await measure('catch up 3 sync-committee periods and take the head', () => lc.sync()))
fixture.head += 1
rows.push(await measure('one new head', () => lc.sync()))
await served.close()

// One mainnet update's signature: 512 keys aggregated (each decompressed and checked) and one pairing check.
const bls = bls12_381.longSignatures
const keys = Array.from({ length: 512 }, (_, i) => {
  const sk = new Uint8Array(32)
  sk[30] = (i + 1) >> 8
  sk[31] = (i + 1) & 0xff
  return sk
})
const pubkeys = keys.map((sk) => bls.getPublicKey(sk).toBytes())
const message = new Uint8Array(32).fill(9)
const dst = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_'
const sum = keys.reduce((a, sk) => a + BigInt(`0x${Buffer.from(sk).toString('hex')}`), 0n)
const signature = bls.sign(bls.hash(message, dst), Buffer.from(sum.toString(16).padStart(64, '0'), 'hex')).toBytes()
const coldStart = performance.now()
if (!verifySyncCommitteeSignature(pubkeys, message, signature)) throw new Error('the bench signature does not verify')
const cold = performance.now() - coldStart
const times: number[] = []
for (let i = 0; i < 5; i++) {
  const t = performance.now()
  if (!verifySyncCommitteeSignature(pubkeys, message, signature)) throw new Error('the bench signature does not verify')
  times.push(performance.now() - t)
}
times.sort((a, b) => a - b)

console.log(
  `\nedgetrace light client — fixture beacon chain (minimal preset) over HTTP, ${LATENCY_MS} ms per request\n`,
)
console.log('| step | requests (= sequential round trips) | wall ms | CPU ms |')
console.log('|---|---:|---:|---:|')
for (const r of rows) console.log(`| ${r.label} | ${r.requests} | ${r.wallMs} | ${r.cpuMs} |`)
console.log(
  `\none mainnet-sized update's BLS check (512 signers): ${cold.toFixed(0)} ms the first time in a period (keys decompressed and checked), then median ${times[2]!.toFixed(0)} ms of 5 (aggregation and one pairing)`,
)

// Blocks far below the anchored head. The fixture node builds empty Prague blocks from the system
// calls alone (mineEmptyBlocks); a beacon chain of 40 slots carries its last blocks.
const SLOTS = 40
const chainNode = await startFixtureNode({ genesis: HISTORY_GENESIS })
const buildStarted = performance.now()
const buildCpu = process.cpuUsage()
await chainNode.chain.mineEmptyBlocks(FAR + SLOTS + 10)
const build = { s: (performance.now() - buildStarted) / 1000, cpu: process.cpuUsage(buildCpu).user / 1e6 }
const tip = Number(chainNode.chain.head().block.header.number)
const first = tip - SLOTS
const carried = await Promise.all(
  Array.from({ length: SLOTS + 1 }, async (_, slot) => {
    const res = await fetch(chainNode.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_getBlockByNumber',
        params: [`0x${(first + slot).toString(16)}`, false],
      }),
    })
    return ((await res.json()) as { result: Record<string, string> }).result
  }),
)
const farBeacon = createBeaconFixture({ executionAt: (slot) => executionPayloadHeaderOf(carried[slot]!) })
farBeacon.head = SLOTS
const farServed = await farBeacon.serve()
const root = `0x${Buffer.from(farBeacon.rootAt(8)).toString('hex')}`
const farClient = await connectLightClient(createBeaconApi(farServed.url), root, { now: farBeacon.now })
// Each block is proven by a daemon of its own (nothing cached from the one before), on one light client.
const daemonOnChain = async () => {
  const upstream = createUpstream({ url: chainNode.url })
  const edge = await createEdgetrace({
    upstream,
    hardfork: 'prague',
    api: ['eth'],
    anchor: createConsensusAnchor(farClient, { checkpoint: root, beaconNode: farServed.url }),
  })
  const head = await edge.engine.headers.resolve({ kind: 'tag', tag: 'latest' })
  upstream.resetStats()
  return { upstream, edge, head }
}
const far: { back: number; roundTrips: number; calls: number; ms: number }[] = []
const { head } = await daemonOnChain()
for (const back of [...new Set([1, 100, 8_192, 20_000, FAR])]) {
  if (BigInt(back) >= head.number) continue
  const number = head.number - BigInt(back)
  const { upstream, edge } = await daemonOnChain()
  const t = performance.now()
  const header = await edge.engine.headers.resolve({ kind: 'number', number })
  const ms = performance.now() - t
  if (header.hash !== chainNode.chain.byNumber(number)!.hash) throw new Error(`block ${number}: not the chain's`)
  const { roundTrips, calls } = upstream.stats()
  far.push({ back, roundTrips, calls, ms })
  await upstream.close()
}
await farServed.close()
await chainNode.close()

console.log(
  `\nblocks below the anchored head (block ${head.number} of a fixture chain of ${tip} empty Prague blocks, built in ${build.s.toFixed(0)} s, ${build.cpu.toFixed(0)} s CPU), the header proven: execution upstream on loopback\n`,
)
console.log('| blocks back | sequential round trips | calls | wall ms (loopback) |')
console.log('|---:|---:|---:|---:|')
for (const r of far)
  console.log(`| ${r.back.toLocaleString('en')} | ${r.roundTrips} | ${r.calls} | ${r.ms.toFixed(0)} |`)
