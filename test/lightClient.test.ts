import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLightClient } from '../src/chain/beacon/createLightClient.js'
import { slotsPerPeriod } from '../src/chain/beacon/beaconConfig.js'
import { LightClientVerificationError } from '../src/errors/consensus.js'
import { createBeaconApi } from '../src/upstream/createBeaconApi.js'
import { type BeaconFixture, type BeaconLie, createBeaconFixture } from './src/beaconFixture.js'

// The light client against a beacon chain served over real HTTP (test/src/beaconFixture.ts: a sync
// committee of generated keys, headers proving their execution payload headers): it bootstraps from
// a trusted root, follows the committee across periods and takes the signed head; each way the
// beacon node can lie is refused, naming the check, and the client keeps what it had.

let fixture: BeaconFixture
let served: Awaited<ReturnType<BeaconFixture['serve']>>

beforeAll(async () => {
  fixture = createBeaconFixture()
  served = await fixture.serve()
})
afterAll(async () => {
  await served?.close()
})

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`

function client(checkpointSlot = 8) {
  return createLightClient({
    api: createBeaconApi(served.url),
    config: fixture.config,
    checkpoint: fixture.rootAt(checkpointSlot),
    genesisTime: fixture.genesisTime,
    secondsPerSlot: fixture.secondsPerSlot,
    now: fixture.now,
  })
}

describe('a consensus light client following a beacon node', () => {
  it('bootstraps from a trusted root and takes the signed head: finalized and optimistic with their execution blocks', async () => {
    fixture.lie = undefined
    fixture.head = 40
    const lc = client()
    await lc.sync()
    const status = lc.status()
    expect(status.optimistic.slot).toBe(39)
    expect(status.optimistic.beaconRoot).toBe(hex(fixture.rootAt(39)))
    expect(status.optimistic.blockHash).toBe(hex(fixture.executionAt(39).blockHash))
    expect(status.optimistic.blockNumber).toBe(39n)
    expect(status.finalized.slot).toBe(16)
    expect(status.finalized.beaconRoot).toBe(hex(fixture.rootAt(16)))
    expect(status.participation).toEqual({ signed: 32, of: 32 })
  })

  it('follows the sync committee across three periods (each next committee proven by the one before), then the head', async () => {
    fixture.lie = undefined
    fixture.head = 40
    const lc = client()
    await lc.sync()
    fixture.head = 3 * slotsPerPeriod(fixture.config) + 30
    await lc.sync()
    const status = lc.status()
    expect(status.syncCommitteePeriod).toBe(3)
    expect(status.optimistic.slot).toBe(fixture.head - 1)
    expect(status.optimistic.blockHash).toBe(hex(fixture.executionAt(fixture.head - 1).blockHash))
    // The committee it checks signatures with now is period 3's, learned through periods 1 and 2.
    expect(lc.store!.currentSyncCommittee.aggregatePubkey).toEqual(fixture.committeeOf(3).committee.aggregatePubkey)
  }, 60_000)

  const lies: [Exclude<BeaconLie, undefined>, RegExp][] = [
    ['signature', /signature does not verify/],
    ['participation', /8 of 32 of the sync committee signed/],
    ['finality branch', /finality branch does not verify/],
    ['execution branch', /execution branch does not verify/],
    ['fork', /signed under deneb's fork version where electra is in force/],
    ['period', /asked for the update of period \d+, the beacon node gave one attested in period \d+/],
  ]
  for (const [lie, words] of lies) {
    it(`refuses a beacon node lying by its ${lie}, naming it, and keeps the head it had`, async () => {
      fixture.lie = undefined
      fixture.head = 40
      const lc = client()
      await lc.sync()
      const before = lc.status()
      fixture.lie = lie
      // Two periods on: the client needs the updates endpoint (period lies) and a new head.
      fixture.head = 2 * slotsPerPeriod(fixture.config) + 20
      const err = await lc.sync().catch((e: unknown) => e)
      fixture.lie = undefined
      expect(err).toBeInstanceOf(LightClientVerificationError)
      expect((err as LightClientVerificationError).check).toBe(lie)
      expect((err as Error).message).toMatch(words)
      expect(lc.status().optimistic.slot).toBeLessThanOrEqual(before.optimistic.slot + slotsPerPeriod(fixture.config))
      expect(lc.status().optimistic.beaconRoot).not.toBe(hex(fixture.rootAt(fixture.head - 1)))
      // Honest again, it catches up.
      await lc.sync()
      expect(lc.status().optimistic.slot).toBe(fixture.head - 1)
    }, 60_000)
  }

  it('refuses a bootstrap for a root other than the trusted one', async () => {
    fixture.lie = undefined
    fixture.head = 40
    const lc = createLightClient({
      api: {
        url: served.url,
        get: (path, signal) =>
          createBeaconApi(served.url).get(path.replace(hex(fixture.rootAt(9)), hex(fixture.rootAt(8))), signal),
      },
      config: fixture.config,
      checkpoint: fixture.rootAt(9),
      genesisTime: fixture.genesisTime,
      secondsPerSlot: fixture.secondsPerSlot,
      now: fixture.now,
    })
    const err = await lc.sync().catch((e: unknown) => e)
    expect((err as LightClientVerificationError).check).toBe('trusted root')
  })

  it('says which path failed when the beacon node has no bootstrap for the root', async () => {
    const lc = createLightClient({
      api: createBeaconApi(served.url),
      config: fixture.config,
      checkpoint: new Uint8Array(32).fill(7),
      genesisTime: fixture.genesisTime,
      secondsPerSlot: fixture.secondsPerSlot,
      now: fixture.now,
    })
    await expect(lc.sync()).rejects.toThrow(/beacon API \/eth\/v1\/beacon\/light_client\/bootstrap\/0x0707.*HTTP 404/)
  })

  it('bounds each Beacon API answer in size and in time: an oversize or hanging node is an error naming the path', async () => {
    const small = createBeaconApi(served.url, { maxBytes: 1000 })
    await expect(small.get(`/eth/v1/beacon/light_client/bootstrap/${hex(fixture.rootAt(8))}`)).rejects.toThrow(
      /beacon API \/eth\/v1\/beacon\/light_client\/bootstrap\/0x[0-9a-f]+: answer over 1000 bytes/,
    )
    // A node that takes the request and never answers.
    const hanging = createServer(() => undefined)
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve))
    try {
      const api = createBeaconApi(`http://127.0.0.1:${(hanging.address() as AddressInfo).port}`, { timeoutMs: 300 })
      const started = Date.now()
      await expect(api.get('/eth/v1/beacon/light_client/finality_update')).rejects.toThrow(/no answer within 300 ms/)
      expect(Date.now() - started).toBeLessThan(3000)
    } finally {
      hanging.closeAllConnections()
      hanging.close()
    }
  })
})
