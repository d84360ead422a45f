// npm run bench, or alone: tsx bench/lightClient.ts [--latency MS]
// The consensus light client (src/chain/beacon) against the fixture beacon chain served over HTTP on
// loopback, each Beacon API request held `latency` ms: bootstrap to the first verified head, catching
// up three sync-committee periods, and one new head — requests, sequential round trips, wall time
// and CPU. Then the BLS check of one mainnet-sized update (512 signers): the cost every head pays.
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { slotsPerPeriod } from '../src/chain/beacon/beaconConfig.js'
import { createLightClient } from '../src/chain/beacon/createLightClient.js'
import { verifySyncCommitteeSignature } from '../src/chain/beacon/verifySyncCommitteeSignature.js'
import { type BeaconApi, createBeaconApi } from '../src/upstream/createBeaconApi.js'
import { createBeaconFixture } from '../test/src/beaconFixture.js'

const at = process.argv.indexOf('--latency')
const LATENCY_MS = at > 0 ? Number(process.argv[at + 1]) : 50

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
