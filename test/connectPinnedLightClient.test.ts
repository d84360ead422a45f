import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  type BeaconPin,
  type BeaconPinStore,
  connectPinnedLightClient,
} from '../src/chain/beacon/connectPinnedLightClient.js'
import { CheckpointTooOldError } from '../src/errors/consensus.js'
import { type ServedBeaconApi, serveBeaconApi } from '../src/node/devnet/serveBeaconApi.js'
import { type BeaconFixture, createBeaconFixture } from './src/beaconFixture.js'

// The one pinned start of the Node server and the browser (src/chain/beacon/connectPinnedLightClient.ts)
// against the fixture beacon chain over HTTP, with pins kept in memory (the store the platforms swap):
// what each platform's wrapper cannot show on its own — a failed check on the resumed root is not
// retried from the checkpoint, the platform's words go on every error, a pin is written before the
// sync that saw it returns, and a store that cannot write stops the start but not a later sync.

let fixture: BeaconFixture
let served: ServedBeaconApi
let asked: string[] = []
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`
const gvr = () => hex(fixture.genesisValidatorsRoot)
const bootstraps = () =>
  asked.filter((p) => p.startsWith('/eth/v1/beacon/light_client/bootstrap/')).map((p) => p.split('/').at(-1))

/** Pins in memory; `writeMs` delays each write, `failWrites` makes them fail. */
function memoryPins({ writeMs = 0, failWrites = false } = {}): BeaconPinStore & { pins: Map<string, BeaconPin> } {
  const pins = new Map<string, BeaconPin>()
  return {
    pins,
    get: async (root) => pins.get(root),
    async set(root, pin) {
      await new Promise((resolve) => setTimeout(resolve, writeMs))
      if (failWrites) throw new Error('the store is full')
      pins.set(root, pin)
    },
  }
}

beforeAll(async () => {
  fixture = createBeaconFixture()
  served = await serveBeaconApi({
    answer: (url) => {
      asked.push(url.pathname)
      return fixture.answer(url)
    },
  })
})
afterAll(async () => {
  await served?.close()
})
beforeEach(() => {
  fixture.head = 40
  fixture.lie = undefined
  asked = []
})

describe('the pinned start shared by Node and the browser', () => {
  it('a resumed root too old is refused as it is, never retried from the pinned checkpoint', async () => {
    const store = memoryPins()
    store.pins.set(gvr(), {
      checkpoint: hex(fixture.rootAt(8)),
      source: 'config',
      pinnedAt: '2026-01-02T03:04:05.000Z',
      lastFinalized: { root: hex(fixture.rootAt(24)), slot: 24 },
    })
    const err = await connectPinnedLightClient({
      url: served.url,
      given: 'config',
      pins: store,
      now: () => fixture.now() + 15 * 86_400_000,
    }).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(CheckpointTooOldError)
    expect((err as Error).message).toContain(`the checkpoint ${hex(fixture.rootAt(24))} (slot 24) is 15 days old`)
    expect(bootstraps()).toEqual([hex(fixture.rootAt(24))])
  })

  it("every error of the start is said in the platform's words (rename), the not-served one naming the pin", async () => {
    const gone = `0x${'5a'.repeat(32)}`
    const store = memoryPins()
    store.pins.set(gvr(), { checkpoint: gone, source: 'config', pinnedAt: '2026-01-02T03:04:05.000Z' })
    const err = await connectPinnedLightClient({
      url: served.url,
      given: 'config',
      pins: store,
      now: fixture.now,
      rename: (e) => new Error(`renamed: ${(e as Error).message.replaceAll('--checkpoint ROOT', 'the field')}`),
    }).then(
      () => undefined,
      (e: unknown) => e as Error,
    )
    expect(err?.message).toContain(
      `renamed: the beacon node ${served.url} serves no light-client bootstrap for the checkpoint ${gone} (pinned since 2026-01-02T03:04:05.000Z)`,
    )
    expect(err?.message).toContain('give a recent finalized root with the field (it replaces the pin)')
    expect(err?.message).not.toContain('--checkpoint')
  })

  it('the newest finalized root is written before the sync that verified it returns', async () => {
    const store = memoryPins({ writeMs: 100 })
    const started = await connectPinnedLightClient({
      url: served.url,
      checkpoint: hex(fixture.rootAt(8)),
      given: 'flag',
      pins: store,
      now: fixture.now,
    })
    expect(started.start).toMatchObject({ checkpoint: hex(fixture.rootAt(8)), source: 'flag', pinnedNow: true })
    const finalized = () => started.client.status().finalized
    expect(store.pins.get(gvr())?.lastFinalized).toEqual({ root: finalized().beaconRoot, slot: 16 })
    fixture.head = 56
    await started.client.sync()
    expect(finalized().slot).toBe(32)
    expect(store.pins.get(gvr())?.lastFinalized).toEqual({ root: hex(fixture.rootAt(32)), slot: 32 })
    expect(started.anchor.report()).toMatchObject({ checkpoint: hex(fixture.rootAt(8)), trustedOnFirstUse: false })
  })

  it('a store that cannot write stops the start; after it, a write that fails is said and the sync goes on', async () => {
    const failing = memoryPins({ failWrites: true })
    const refused = await connectPinnedLightClient({
      url: served.url,
      given: 'flag',
      pins: failing,
      now: fixture.now,
    }).then(
      () => undefined,
      (e: unknown) => e as Error,
    )
    expect(refused?.message).toBe('the store is full')

    const store = memoryPins()
    const lines: string[] = []
    const started = await connectPinnedLightClient({
      url: served.url,
      given: 'flag',
      pins: store,
      now: fixture.now,
      log: (line) => lines.push(line),
    })
    expect(started.start).toMatchObject({ source: 'first use', checkpoint: hex(fixture.rootAt(24)) })
    store.set = async () => {
      throw new Error('the disk is gone')
    }
    fixture.head = 56
    await started.client.sync()
    expect(started.client.status().finalized.slot).toBe(32)
    expect(lines).toEqual(['beacon: the pin was not written: the disk is gone'])
  })
})
