import { type LightClientCheck, LightClientVerificationError } from '../../errors/consensus.js'
import { bytes as hex } from '../../utils/hex.js'
import {
  type BeaconConfig,
  epochAtSlot,
  forkAtEpoch,
  isForkActive,
  lightClientForkAtSlot,
  periodAtSlot,
  slotsPerPeriod,
  syncCommitteeDomain,
} from './beaconConfig.js'
import {
  EXECUTION_BRANCH_DEPTH,
  type LightClientBootstrap,
  type LightClientHeader,
  type LightClientUpdate,
  type SyncCommittee,
  beaconBlockHeaderRoot,
  executionPayloadHeaderRoot,
  isEmptyLightClientHeader,
  isEmptySyncCommittee,
  syncCommitteeRoot,
} from './lightClientContainers.js'
import { equalBytes, isValidMerkleBranch, isZero, merkleize } from './ssz.js'
import { verifySyncCommitteeSignature } from './verifySyncCommitteeSignature.js'

/**
 * The consensus specs' LightClientStore and the sync protocol run on it (altair's, as Capella, Deneb
 * and Electra amend it): bootstrapped from a trusted beacon block root, moved only by updates whose
 * sync-committee signature, participation, Merkle branches and slots verify. `finalized` and
 * `optimistic` are the headers it stands on: their execution payload headers are the execution
 * blocks consensus vouches for.
 */
export type LightClientStore = {
  readonly config: BeaconConfig
  readonly finalized: LightClientHeader
  readonly optimistic: LightClientHeader
  readonly currentSyncCommittee: SyncCommittee
  /** Undefined while not known. */
  readonly nextSyncCommittee: SyncCommittee | undefined
  /** How many of the committee signed the best update seen (the safety threshold's input). */
  readonly maxActiveParticipants: { previous: number; current: number }
  /** process_light_client_update: throws LightClientVerificationError, leaving the store as it was. */
  processUpdate(update: LightClientUpdate, currentSlot: number): void
  /** process_light_client_store_force_update: past the update timeout, the best valid update is applied. */
  forceUpdate(currentSlot: number): void
}

// Generalized indices of the beacon state's fields the branches prove (before Electra / from Electra).
const FINALIZED_ROOT_GINDEX = { before: 105, electra: 169 }
const CURRENT_SYNC_COMMITTEE_GINDEX = { before: 54, electra: 86 }
const NEXT_SYNC_COMMITTEE_GINDEX = { before: 55, electra: 87 }
const EXECUTION_PAYLOAD_GINDEX = 25

const floorLog2 = (n: number) => Math.floor(Math.log2(n))

function fail(check: LightClientCheck, message: string, slots?: { attested?: number; signature?: number }): never {
  throw new LightClientVerificationError(check, message, slots)
}

/** is_valid_normalized_merkle_branch: a branch longer than the gindex's depth leads with zeros. */
function isValidNormalizedBranch(leaf: Uint8Array, branch: Uint8Array[], gindex: number, root: Uint8Array): boolean {
  const depth = floorLog2(gindex)
  const extra = branch.length - depth
  if (extra < 0) return false
  for (let i = 0; i < extra; i++) if (!isZero(branch[i]!)) return false
  return isValidMerkleBranch(leaf, branch.slice(extra), depth, gindex % 2 ** depth, root)
}

/** The execution payload header's root as the fork at its beacon slot shapes it (get_lc_execution_root). */
export function lightClientExecutionRoot(config: BeaconConfig, header: LightClientHeader): Uint8Array {
  return executionPayloadHeaderRoot(header.execution, lightClientForkAtSlot(config, header.beacon.slot))
}

/** is_valid_light_client_header: its execution payload header is proven by its branch under the beacon body root. */
function checkHeader(config: BeaconConfig, header: LightClientHeader, what: string): void {
  const epoch = epochAtSlot(config, header.beacon.slot)
  if (
    !isForkActive(config, 'deneb', epoch) &&
    (header.execution.blobGasUsed !== 0n || header.execution.excessBlobGas !== 0n)
  )
    fail('shape', `${what} at slot ${header.beacon.slot} is before Deneb but carries blob gas`)
  if (!isForkActive(config, 'capella', epoch)) fail('fork', `${what} at slot ${header.beacon.slot} is before Capella`)
  if (
    header.executionBranch.length !== EXECUTION_BRANCH_DEPTH ||
    !isValidMerkleBranch(
      lightClientExecutionRoot(config, header),
      header.executionBranch,
      floorLog2(EXECUTION_PAYLOAD_GINDEX),
      EXECUTION_PAYLOAD_GINDEX % 2 ** floorLog2(EXECUTION_PAYLOAD_GINDEX),
      header.beacon.bodyRoot,
    )
  )
    fail(
      'execution branch',
      `${what} at slot ${header.beacon.slot}: its execution payload header is not in its block body`,
    )
}

const gindexAt = (config: BeaconConfig, slot: number, g: { before: number; electra: number }) =>
  isForkActive(config, 'electra', epochAtSlot(config, slot)) ? g.electra : g.before

const participants = (update: LightClientUpdate) => update.syncAggregate.bits.filter(Boolean).length
const isSyncCommitteeUpdate = (update: LightClientUpdate) => !update.nextSyncCommitteeBranch.every(isZero)
const isFinalityUpdate = (update: LightClientUpdate) => !update.finalityBranch.every(isZero)

/** is_better_update: whether `a` is a better update to fall back on than `b`. */
function isBetterUpdate(config: BeaconConfig, a: LightClientUpdate, b: LightClientUpdate): boolean {
  const max = a.syncAggregate.bits.length
  const aActive = participants(a)
  const bActive = participants(b)
  const aSuper = aActive * 3 >= max * 2
  const bSuper = bActive * 3 >= max * 2
  if (aSuper !== bSuper) return aSuper
  if (!aSuper && aActive !== bActive) return aActive > bActive
  const relevant = (u: LightClientUpdate) =>
    isSyncCommitteeUpdate(u) &&
    periodAtSlot(config, u.attestedHeader.beacon.slot) === periodAtSlot(config, u.signatureSlot)
  if (relevant(a) !== relevant(b)) return relevant(a)
  if (isFinalityUpdate(a) !== isFinalityUpdate(b)) return isFinalityUpdate(a)
  if (isFinalityUpdate(a)) {
    const committeeFinality = (u: LightClientUpdate) =>
      periodAtSlot(config, u.finalizedHeader.beacon.slot) === periodAtSlot(config, u.attestedHeader.beacon.slot)
    if (committeeFinality(a) !== committeeFinality(b)) return committeeFinality(a)
  }
  if (aActive !== bActive) return aActive > bActive
  if (a.attestedHeader.beacon.slot !== b.attestedHeader.beacon.slot)
    return a.attestedHeader.beacon.slot < b.attestedHeader.beacon.slot
  return a.signatureSlot < b.signatureSlot
}

/** initialize_light_client_store: a store from a bootstrap for a beacon block root one trusts. */
export function createLightClientStore(
  config: BeaconConfig,
  trustedBlockRoot: Uint8Array,
  bootstrap: LightClientBootstrap,
): LightClientStore {
  checkHeader(config, bootstrap.header, 'the bootstrap header')
  const root = beaconBlockHeaderRoot(bootstrap.header.beacon)
  if (!equalBytes(root, trustedBlockRoot))
    fail('trusted root', `the bootstrap is for ${hex(root)}, not the trusted ${hex(trustedBlockRoot)}`)
  const slot = bootstrap.header.beacon.slot
  if (
    !isValidNormalizedBranch(
      syncCommitteeRoot(bootstrap.currentSyncCommittee),
      bootstrap.currentSyncCommitteeBranch,
      gindexAt(config, slot, CURRENT_SYNC_COMMITTEE_GINDEX),
      bootstrap.header.beacon.stateRoot,
    )
  )
    fail('current sync committee branch', `the bootstrap's sync committee is not in the state of slot ${slot}`)

  let finalized = bootstrap.header
  let optimistic = bootstrap.header
  let current = bootstrap.currentSyncCommittee
  let next: SyncCommittee | undefined
  let best: LightClientUpdate | undefined
  const maxActive = { previous: 0, current: 0 }

  function validate(update: LightClientUpdate, currentSlot: number): void {
    const attestedSlot = update.attestedHeader.beacon.slot
    const finalizedSlot = update.finalizedHeader.beacon.slot
    const slots = { attested: attestedSlot, signature: update.signatureSlot }
    const active = participants(update)
    if (active < config.preset.minSyncCommitteeParticipants)
      fail(
        'participation',
        `${active} of ${update.syncAggregate.bits.length} signed (at least ${config.preset.minSyncCommitteeParticipants})`,
        slots,
      )
    checkHeader(config, update.attestedHeader, 'the attested header')
    if (!(currentSlot >= update.signatureSlot && update.signatureSlot > attestedSlot && attestedSlot >= finalizedSlot))
      fail(
        'slots',
        `want current ${currentSlot} ≥ signature ${update.signatureSlot} > attested ${attestedSlot} ≥ finalized ${finalizedSlot}`,
        slots,
      )
    const storePeriod = periodAtSlot(config, finalized.beacon.slot)
    const signaturePeriod = periodAtSlot(config, update.signatureSlot)
    if (next ? signaturePeriod !== storePeriod && signaturePeriod !== storePeriod + 1 : signaturePeriod !== storePeriod)
      fail(
        'period',
        `signed in period ${signaturePeriod}; the store is in period ${storePeriod}${next ? ' (next committee known)' : ''}`,
        slots,
      )
    const attestedPeriod = periodAtSlot(config, attestedSlot)
    const hasNextSyncCommittee = !next && isSyncCommitteeUpdate(update) && attestedPeriod === storePeriod
    if (!(attestedSlot > finalized.beacon.slot || hasNextSyncCommittee))
      fail(
        'slots',
        `attested slot ${attestedSlot} is not past the finalized ${finalized.beacon.slot} and brings no next committee`,
        slots,
      )

    if (!isFinalityUpdate(update)) {
      if (!isEmptyLightClientHeader(update.finalizedHeader))
        fail('finality branch', 'a finalized header without a finality branch', slots)
    } else {
      let finalizedRoot: Uint8Array
      if (finalizedSlot === 0) {
        if (!isEmptyLightClientHeader(update.finalizedHeader))
          fail('finality branch', 'a genesis finalized header that is not empty', slots)
        finalizedRoot = new Uint8Array(32)
      } else {
        checkHeader(config, update.finalizedHeader, 'the finalized header')
        finalizedRoot = beaconBlockHeaderRoot(update.finalizedHeader.beacon)
      }
      if (
        !isValidNormalizedBranch(
          finalizedRoot,
          update.finalityBranch,
          gindexAt(config, attestedSlot, FINALIZED_ROOT_GINDEX),
          update.attestedHeader.beacon.stateRoot,
        )
      )
        fail(
          'finality branch',
          `the finalized block ${hex(finalizedRoot)} is not in the state of slot ${attestedSlot}`,
          slots,
        )
    }

    if (!isSyncCommitteeUpdate(update)) {
      if (!isEmptySyncCommittee(update.nextSyncCommittee))
        fail('next sync committee branch', 'a next sync committee without a branch', slots)
    } else {
      if (
        attestedPeriod === storePeriod &&
        next &&
        !equalBytes(syncCommitteeRoot(update.nextSyncCommittee), syncCommitteeRoot(next))
      )
        fail(
          'next sync committee branch',
          `a next sync committee other than the one known for period ${storePeriod + 1}`,
          slots,
        )
      if (
        !isValidNormalizedBranch(
          syncCommitteeRoot(update.nextSyncCommittee),
          update.nextSyncCommitteeBranch,
          gindexAt(config, attestedSlot, NEXT_SYNC_COMMITTEE_GINDEX),
          update.attestedHeader.beacon.stateRoot,
        )
      )
        fail('next sync committee branch', `the next sync committee is not in the state of slot ${attestedSlot}`, slots)
    }

    const committee = signaturePeriod === storePeriod ? current : next!
    const signers = committee.pubkeys.filter((_, i) => update.syncAggregate.bits[i])
    const forkVersionSlot = Math.max(update.signatureSlot, 1) - 1
    const fork = forkAtEpoch(config, epochAtSlot(config, forkVersionSlot))
    const signingRoot = merkleize([
      beaconBlockHeaderRoot(update.attestedHeader.beacon),
      syncCommitteeDomain(config, fork.version),
    ])
    if (!verifySyncCommitteeSignature(signers, signingRoot, update.syncAggregate.signature)) {
      // Said as a fork mismatch when the committee signed the block under another fork's version.
      const attestedRoot = beaconBlockHeaderRoot(update.attestedHeader.beacon)
      const other = config.forks.find(
        (f) =>
          f.version.some((b, i) => b !== fork.version[i]) &&
          verifySyncCommitteeSignature(
            signers,
            merkleize([attestedRoot, syncCommitteeDomain(config, f.version)]),
            update.syncAggregate.signature,
          ),
      )
      if (other)
        fail(
          'fork',
          `the committee signed under ${other.name}'s fork version where ${fork.name} is in force (slot ${forkVersionSlot})`,
          slots,
        )
      fail(
        'signature',
        `the sync committee's aggregate signature of ${active} over block ${hex(beaconBlockHeaderRoot(update.attestedHeader.beacon))} (fork ${fork.name}) is not valid`,
        slots,
      )
    }
  }

  function apply(update: LightClientUpdate): void {
    const storePeriod = periodAtSlot(config, finalized.beacon.slot)
    const finalizedPeriod = periodAtSlot(config, update.finalizedHeader.beacon.slot)
    if (!next) {
      if (finalizedPeriod !== storePeriod)
        fail(
          'period',
          `an update finalizing period ${finalizedPeriod} while the store is in ${storePeriod} with no next committee`,
        )
      next = isEmptySyncCommittee(update.nextSyncCommittee) ? undefined : update.nextSyncCommittee
    } else if (finalizedPeriod === storePeriod + 1) {
      current = next
      next = isEmptySyncCommittee(update.nextSyncCommittee) ? undefined : update.nextSyncCommittee
      maxActive.previous = maxActive.current
      maxActive.current = 0
    }
    if (update.finalizedHeader.beacon.slot > finalized.beacon.slot) {
      finalized = update.finalizedHeader
      if (finalized.beacon.slot > optimistic.beacon.slot) optimistic = finalized
    }
  }

  return {
    config,
    get finalized() {
      return finalized
    },
    get optimistic() {
      return optimistic
    },
    get currentSyncCommittee() {
      return current
    },
    get nextSyncCommittee() {
      return next
    },
    get maxActiveParticipants() {
      return { ...maxActive }
    },
    processUpdate(update, currentSlot) {
      validate(update, currentSlot)
      const active = participants(update)
      if (!best || isBetterUpdate(config, update, best)) best = update
      maxActive.current = Math.max(maxActive.current, active)
      const safetyThreshold = Math.floor(Math.max(maxActive.previous, maxActive.current) / 2)
      if (active > safetyThreshold && update.attestedHeader.beacon.slot > optimistic.beacon.slot)
        optimistic = update.attestedHeader
      const hasFinalizedNextSyncCommittee =
        !next &&
        isSyncCommitteeUpdate(update) &&
        isFinalityUpdate(update) &&
        periodAtSlot(config, update.finalizedHeader.beacon.slot) ===
          periodAtSlot(config, update.attestedHeader.beacon.slot)
      if (
        active * 3 >= update.syncAggregate.bits.length * 2 &&
        (update.finalizedHeader.beacon.slot > finalized.beacon.slot || hasFinalizedNextSyncCommittee)
      ) {
        apply(update)
        best = undefined
      }
    },
    forceUpdate(currentSlot) {
      if (currentSlot <= finalized.beacon.slot + slotsPerPeriod(config) || !best) return
      const update =
        best.finalizedHeader.beacon.slot <= finalized.beacon.slot
          ? { ...best, finalizedHeader: best.attestedHeader }
          : best
      apply(update)
      best = undefined
    },
  }
}
