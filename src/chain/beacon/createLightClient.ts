import { LightClientVerificationError } from '../../errors/consensus.js'
import type { BeaconApi } from '../../upstream/createBeaconApi.js'
import { bytes as hex } from '../../utils/hex.js'
import { type BeaconConfig, periodAtSlot } from './beaconConfig.js'
import { type LightClientStore, createLightClientStore } from './createLightClientStore.js'
import { type LightClientHeader, type LightClientUpdate, beaconBlockHeaderRoot } from './lightClientContainers.js'
import { lightClientBootstrapFromJson, lightClientForkOf, lightClientUpdateFromJson } from './lightClientJson.js'

export type LightClientParameters = {
  api: BeaconApi
  config: BeaconConfig
  /** The beacon block root one trusts (the checkpoint the store bootstraps from). */
  checkpoint: Uint8Array
  /** The beacon chain's genesis time (seconds) and slot length: the current slot. */
  genesisTime: number
  secondsPerSlot: number
  /** The clock (ms since the epoch). */
  now?: () => number
  /**
   * The least share of the sync committee whose signature an update must carry to be taken: 2/3 by
   * default, the supermajority the specs finalize with. The specs accept one signer (and keep such an
   * update for a forced step after a period without finality); here a minority of the committee
   * moves neither the committees nor the head.
   */
  minParticipation?: number
}

/** One anchored header as the client reports it. */
export type AnchoredHeader = { slot: number; beaconRoot: string; blockNumber: bigint; blockHash: string }

export type LightClient = {
  /** Bootstraps (the first time) and brings the store to the beacon node's latest verified head. */
  sync(signal?: AbortSignal): Promise<void>
  readonly store: LightClientStore | undefined
  currentSlot(): number
  /** The finalized and optimistic heads, the committee period, and how many signed the head. */
  status(): {
    finalized: AnchoredHeader
    optimistic: AnchoredHeader
    syncCommitteePeriod: number
    participation: { signed: number; of: number }
  }
}

/** Sync-committee periods one `updates` request may ask for (the Beacon API's MAX_REQUEST_LIGHT_CLIENT_UPDATES). */
const MAX_UPDATES = 128

type Versioned = { version?: unknown; data?: unknown }

const anchored = (h: LightClientHeader): AnchoredHeader => ({
  slot: h.beacon.slot,
  beaconRoot: hex(beaconBlockHeaderRoot(h.beacon)),
  blockNumber: h.execution.blockNumber,
  blockHash: hex(h.execution.blockHash),
})

/**
 * A consensus light client following a beacon node: the store bootstraps from the checkpoint, then
 * catches up period by period through `light_client/updates` (each next sync committee proven by the
 * one before it), then takes the latest `finality_update` and `optimistic_update`. Whatever does not
 * verify is an error naming the check; the store keeps what it had.
 */
export function createLightClient({
  api,
  config,
  checkpoint,
  genesisTime,
  secondsPerSlot,
  now = Date.now,
  minParticipation = 2 / 3,
}: LightClientParameters): LightClient {
  let store: LightClientStore | undefined
  let headSigners = { signed: 0, of: config.preset.syncCommitteeSize }
  const currentSlot = () => Math.max(0, Math.floor((now() / 1000 - genesisTime) / secondsPerSlot))

  const versioned = (json: unknown, what: string): { fork: ReturnType<typeof lightClientForkOf>; data: unknown } => {
    const v = json as Versioned
    if (typeof v !== 'object' || v === null || v.data === undefined)
      throw new LightClientVerificationError('shape', `${what}: no data in the beacon node's answer`)
    return { fork: lightClientForkOf(v.version), data: v.data }
  }

  async function bootstrap(signal?: AbortSignal): Promise<LightClientStore> {
    const answer = await api.get(`/eth/v1/beacon/light_client/bootstrap/${hex(checkpoint)}`, signal)
    const { fork, data } = versioned(answer, 'bootstrap')
    return createLightClientStore(config, checkpoint, lightClientBootstrapFromJson(data, fork, config))
  }

  /**
   * An update into the store, signed by enough of the committee (a minority of it moves nothing
   * here: neither the committees nor the head); the head's signers are remembered.
   */
  function take(s: LightClientStore, update: LightClientUpdate, slot: number): void {
    const signed = update.syncAggregate.bits.filter(Boolean).length
    const of = update.syncAggregate.bits.length
    if (signed < of * minParticipation)
      throw new LightClientVerificationError(
        'participation',
        `${signed} of ${of} of the sync committee signed the block at slot ${update.attestedHeader.beacon.slot}, fewer than ${Math.ceil(of * minParticipation)}`,
        { attested: update.attestedHeader.beacon.slot, signature: update.signatureSlot },
      )
    const optimistic = s.optimistic
    s.processUpdate(update, slot)
    if (s.optimistic !== optimistic) headSigners = { signed, of }
  }

  /** A head update (finality or optimistic), taken when it brings something new. */
  function takeHeadUpdate(s: LightClientStore, update: LightClientUpdate, slot: number): void {
    const isNew =
      update.attestedHeader.beacon.slot > s.optimistic.beacon.slot ||
      update.finalizedHeader.beacon.slot > s.finalized.beacon.slot
    if (isNew) take(s, update, slot)
  }

  return {
    get store() {
      return store
    },
    currentSlot,
    async sync(signal) {
      store ??= await bootstrap(signal)
      const s = store
      const slot = currentSlot()
      // Period by period: each update proves the next committee, which checks the next update.
      for (let guard = 0; guard < 1024; guard++) {
        const storePeriod = periodAtSlot(config, s.finalized.beacon.slot)
        const currentPeriod = periodAtSlot(config, slot)
        if (storePeriod >= currentPeriod && s.nextSyncCommittee) break
        const count = Math.min(currentPeriod - storePeriod + 1, MAX_UPDATES)
        const answer = await api.get(
          `/eth/v1/beacon/light_client/updates?start_period=${storePeriod}&count=${count}`,
          signal,
        )
        if (!Array.isArray(answer) || answer.length === 0) break
        const before = `${s.finalized.beacon.slot}/${s.nextSyncCommittee !== undefined}`
        for (const [i, item] of answer.entries()) {
          const { fork, data } = versioned(item, 'update')
          const update = lightClientUpdateFromJson(data, fork, config)
          const period = periodAtSlot(config, update.attestedHeader.beacon.slot)
          if (period !== storePeriod + i)
            throw new LightClientVerificationError(
              'period',
              `asked for the update of period ${storePeriod + i}, the beacon node gave one attested in period ${period}`,
              { attested: update.attestedHeader.beacon.slot, signature: update.signatureSlot },
            )
          if (periodAtSlot(config, s.finalized.beacon.slot) > period) continue
          take(s, update, slot)
        }
        // No progress (the node has nothing newer): the head updates below take it from here.
        if (`${s.finalized.beacon.slot}/${s.nextSyncCommittee !== undefined}` === before) break
      }
      const finality = versioned(
        await api.get('/eth/v1/beacon/light_client/finality_update', signal),
        'finality update',
      )
      takeHeadUpdate(s, lightClientUpdateFromJson(finality.data, finality.fork, config), slot)
      const optimistic = versioned(
        await api.get('/eth/v1/beacon/light_client/optimistic_update', signal),
        'optimistic update',
      )
      takeHeadUpdate(s, lightClientUpdateFromJson(optimistic.data, optimistic.fork, config), slot)
    },
    status() {
      if (!store) throw new Error('light client: not bootstrapped yet')
      return {
        finalized: anchored(store.finalized),
        optimistic: anchored(store.optimistic),
        syncCommitteePeriod: periodAtSlot(config, store.finalized.beacon.slot),
        participation: headSigners,
      }
    },
  }
}
