import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { uncompressSnappyBlock } from '../../../test/src/snappyBlock.js'
import { LightClientVerificationError } from '../../errors/consensus.js'
import { type BeaconConfig, parseBeaconConfig } from './beaconConfig.js'
import { createLightClientStore } from './createLightClientStore.js'
import {
  type LightClientUpdate,
  beaconBlockHeaderRoot,
  decodeLightClientBootstrap,
  decodeLightClientUpdate,
} from './lightClientContainers.js'

// Each check of the sync protocol refuses what it is there to refuse, naming it, and leaves the
// store as it was: the real Electra vectors (test/fixtures/consensus-light-client), one part
// tampered with at a time. (The conformance test shows the honest ones accepted.)

const DIR = join(import.meta.dirname, '../../../test/fixtures/consensus-light-client/electra/light_client_sync')
const read = (file: string) => readFileSync(join(DIR, file), 'utf8')
const ssz = (file: string) => uncompressSnappyBlock(new Uint8Array(readFileSync(join(DIR, `${file}.ssz_snappy`))))
const bytes = (h: string) => Uint8Array.from(Buffer.from(h.replace(/^0x/, ''), 'hex'))

const meta = parse(read('meta.yaml')) as Record<string, string>
const steps = parse(read('steps.yaml')) as { process_update: { update: string; current_slot: number } }[]
const first = steps[0]!.process_update

function chain(genesisValidatorsRoot = meta.genesis_validators_root!): BeaconConfig {
  return parseBeaconConfig(
    parse(read('config.yaml'), { schema: 'failsafe' }) as Record<string, unknown>,
    genesisValidatorsRoot,
  )
}

function fresh(config = chain()) {
  const bootstrap = decodeLightClientBootstrap(ssz('bootstrap'), 'electra', config)
  return { store: createLightClientStore(config, bytes(meta.trusted_block_root!), bootstrap), bootstrap, config }
}

const update = (config = chain()): LightClientUpdate => decodeLightClientUpdate(ssz(first.update), 'electra', config)

/** A copy of `b` with one bit flipped. */
function flipped(b: Uint8Array, at = 0): Uint8Array {
  const out = Uint8Array.from(b)
  out[at] = out[at]! ^ 1
  return out
}

function refused(run: () => void, check: string) {
  try {
    run()
  } catch (err) {
    expect(err).toBeInstanceOf(LightClientVerificationError)
    expect((err as LightClientVerificationError).check).toBe(check)
    return (err as Error).message
  }
  throw new Error(`not refused: want ${check}`)
}

describe('the light-client store', () => {
  it('takes the honest first update: finalized and optimistic move', () => {
    const { store } = fresh()
    const before = store.finalized.beacon.slot
    store.processUpdate(update(), first.current_slot)
    expect(store.finalized.beacon.slot).toBeGreaterThan(before)
  })

  const cases: [string, string, (u: LightClientUpdate) => LightClientUpdate][] = [
    [
      'a signature of other bytes',
      'signature',
      (u) => ({
        ...u,
        syncAggregate: {
          ...u.syncAggregate,
          signature: update().syncAggregate.signature.map((b, i) => (i === 95 ? b ^ 1 : b)),
        },
      }),
    ],
    [
      'a signer left out of the bits (the aggregate no longer matches)',
      'signature',
      (u) => ({
        ...u,
        syncAggregate: {
          ...u.syncAggregate,
          bits: u.syncAggregate.bits.map((b, i) => (i === u.syncAggregate.bits.indexOf(true) ? false : b)),
        },
      }),
    ],
    [
      'no signer at all',
      'participation',
      (u) => ({ ...u, syncAggregate: { ...u.syncAggregate, bits: u.syncAggregate.bits.map(() => false) } }),
    ],
    [
      'a finality branch with a node changed',
      'finality branch',
      (u) => ({
        ...u,
        finalityBranch: u.finalityBranch.map((n, i) => (i === u.finalityBranch.length - 1 ? flipped(n) : n)),
      }),
    ],
    [
      'a finalized header with another state root',
      'finality branch',
      (u) => ({
        ...u,
        finalizedHeader: {
          ...u.finalizedHeader,
          beacon: { ...u.finalizedHeader.beacon, stateRoot: flipped(u.finalizedHeader.beacon.stateRoot) },
        },
      }),
    ],
    [
      'an attested execution header with its block hash changed',
      'execution branch',
      (u) => ({
        ...u,
        attestedHeader: {
          ...u.attestedHeader,
          execution: { ...u.attestedHeader.execution, blockHash: flipped(u.attestedHeader.execution.blockHash) },
        },
      }),
    ],
    [
      'a finalized execution header with another state root',
      'execution branch',
      (u) => ({
        ...u,
        finalizedHeader: {
          ...u.finalizedHeader,
          execution: { ...u.finalizedHeader.execution, stateRoot: flipped(u.finalizedHeader.execution.stateRoot) },
        },
      }),
    ],
    [
      'a next sync committee with one key changed',
      'next sync committee branch',
      (u) => ({
        ...u,
        nextSyncCommittee: {
          ...u.nextSyncCommittee,
          pubkeys: u.nextSyncCommittee.pubkeys.map((k, i) => (i === 3 ? flipped(k, 47) : k)),
        },
      }),
    ],
    ['a signature slot two periods ahead', 'period', (u) => ({ ...u, signatureSlot: u.signatureSlot + 2 * 64 })],
    [
      'a signature slot not after the attested one',
      'slots',
      (u) => ({ ...u, signatureSlot: u.attestedHeader.beacon.slot }),
    ],
  ]
  for (const [what, check, tamper] of cases) {
    it(`refuses ${what} (${check}), the store unchanged`, () => {
      const { store } = fresh()
      const finalized = beaconBlockHeaderRoot(store.finalized.beacon)
      const optimistic = beaconBlockHeaderRoot(store.optimistic.beacon)
      refused(() => store.processUpdate(tamper(update()), first.current_slot + 3 * 64), check)
      expect(beaconBlockHeaderRoot(store.finalized.beacon)).toEqual(finalized)
      expect(beaconBlockHeaderRoot(store.optimistic.beacon)).toEqual(optimistic)
      expect(store.nextSyncCommittee).toBeUndefined()
      // The honest update still goes through afterwards.
      store.processUpdate(update(), first.current_slot)
      expect(store.finalized.beacon.slot).toBeGreaterThan(0)
    })
  }

  it('refuses an update signed for another chain (another genesis validators root: another signing domain)', () => {
    const other = chain(`0x${'11'.repeat(32)}`)
    const { store } = fresh(other)
    expect(refused(() => store.processUpdate(update(other), first.current_slot), 'signature')).toMatch(/fork electra/)
  })

  it('refuses a bootstrap for another root than the trusted one, and one whose committee is not in its state', () => {
    const config = chain()
    const bootstrap = decodeLightClientBootstrap(ssz('bootstrap'), 'electra', config)
    refused(() => createLightClientStore(config, flipped(bytes(meta.trusted_block_root!)), bootstrap), 'trusted root')
    const forged = {
      ...bootstrap,
      currentSyncCommittee: {
        ...bootstrap.currentSyncCommittee,
        aggregatePubkey: flipped(bootstrap.currentSyncCommittee.aggregatePubkey, 47),
      },
    }
    refused(
      () => createLightClientStore(config, bytes(meta.trusted_block_root!), forged),
      'current sync committee branch',
    )
  })
})
