import { bytesRoot, merkleize } from './ssz.js'

/** The forks whose light-client containers edgetrace reads (Capella on: each carries an execution payload header). */
export type LightClientFork = 'capella' | 'deneb' | 'electra' | 'fulu'

const FORK_ORDER = ['altair', 'bellatrix', 'capella', 'deneb', 'electra', 'fulu'] as const
type AnyFork = (typeof FORK_ORDER)[number] | 'genesis'

/** A consensus preset's sizes the light client depends on (consensus-specs presets/{minimal,mainnet}). */
export type BeaconPreset = {
  name: 'minimal' | 'mainnet'
  syncCommitteeSize: number
  slotsPerEpoch: number
  epochsPerSyncCommitteePeriod: number
  minSyncCommitteeParticipants: number
}

export const PRESETS: Record<BeaconPreset['name'], BeaconPreset> = {
  minimal: {
    name: 'minimal',
    syncCommitteeSize: 32,
    slotsPerEpoch: 8,
    epochsPerSyncCommitteePeriod: 8,
    minSyncCommitteeParticipants: 1,
  },
  mainnet: {
    name: 'mainnet',
    syncCommitteeSize: 512,
    slotsPerEpoch: 32,
    epochsPerSyncCommitteePeriod: 256,
    minSyncCommitteeParticipants: 1,
  },
}

/** A beacon chain as the light client needs it: its preset, fork schedule and genesis validators root. */
export type BeaconConfig = {
  preset: BeaconPreset
  genesisValidatorsRoot: Uint8Array
  /** Each fork's version (4 bytes) and first epoch, genesis first; forks not scheduled are left out. */
  forks: { name: AnyFork; version: Uint8Array; epoch: number }[]
}

const FAR_FUTURE = 2 ** 64 - 1

function hexBytes(text: string, length: number, what: string): Uint8Array {
  const clean = String(text).replace(/^0x/, '')
  if (clean.length !== length * 2 || /[^0-9a-fA-F]/.test(clean))
    throw new Error(`${what}: ${length}-byte hex expected, got ${text}`)
  return Uint8Array.from(clean.match(/../g)!.map((h) => Number.parseInt(h, 16)))
}

/**
 * A beacon config from the consensus specs' config file's keys (`PRESET_BASE`, `GENESIS_FORK_VERSION`,
 * `<FORK>_FORK_VERSION` and `<FORK>_FORK_EPOCH`) and the chain's genesis validators root.
 */
export function parseBeaconConfig(config: Record<string, unknown>, genesisValidatorsRoot: string): BeaconConfig {
  const presetName = String(config.PRESET_BASE ?? '').replace(/'/g, '')
  const preset = PRESETS[presetName as BeaconPreset['name']]
  if (!preset) throw new Error(`beacon config: PRESET_BASE must be minimal or mainnet, got ${presetName || 'nothing'}`)
  const forks: BeaconConfig['forks'] = [
    { name: 'genesis', version: hexBytes(String(config.GENESIS_FORK_VERSION), 4, 'GENESIS_FORK_VERSION'), epoch: 0 },
  ]
  for (const name of FORK_ORDER) {
    const key = name.toUpperCase()
    const version = config[`${key}_FORK_VERSION`]
    const epochText = config[`${key}_FORK_EPOCH`]
    if (version === undefined || epochText === undefined) continue
    const epoch = Number(epochText)
    if (!Number.isFinite(epoch) || epoch >= FAR_FUTURE) continue
    forks.push({ name, version: hexBytes(String(version), 4, `${key}_FORK_VERSION`), epoch })
  }
  return { preset, genesisValidatorsRoot: hexBytes(genesisValidatorsRoot, 32, 'genesis validators root'), forks }
}

export const slotsPerPeriod = (config: BeaconConfig) =>
  config.preset.slotsPerEpoch * config.preset.epochsPerSyncCommitteePeriod

export const epochAtSlot = (config: BeaconConfig, slot: number) => Math.floor(slot / config.preset.slotsPerEpoch)

/** compute_sync_committee_period_at_slot. */
export const periodAtSlot = (config: BeaconConfig, slot: number) => Math.floor(slot / slotsPerPeriod(config))

/** The fork in force at an epoch. */
export function forkAtEpoch(config: BeaconConfig, epoch: number): BeaconConfig['forks'][number] {
  let current = config.forks[0]!
  for (const fork of config.forks) if (epoch >= fork.epoch) current = fork
  return current
}

/** Whether `fork` is in force at `epoch` (it or a later one). */
export function isForkActive(config: BeaconConfig, fork: LightClientFork, epoch: number): boolean {
  const scheduled = config.forks.find((f) => f.name === fork)
  return scheduled !== undefined && epoch >= scheduled.epoch
}

/** hash_tree_root(ForkData(current_version, genesis_validators_root)). */
export function forkDataRoot(version: Uint8Array, genesisValidatorsRoot: Uint8Array): Uint8Array {
  return merkleize([bytesRoot(version), genesisValidatorsRoot])
}

/** compute_fork_digest (before Fulu's blob-parameter mix): the fork data root's first 4 bytes. */
export function forkDigest(config: BeaconConfig, version: Uint8Array): Uint8Array {
  return forkDataRoot(version, config.genesisValidatorsRoot).subarray(0, 4)
}

/** The light-client fork whose containers a fork digest names, or undefined. */
export function lightClientForkOfDigest(config: BeaconConfig, digest: Uint8Array): LightClientFork | undefined {
  for (const fork of config.forks) {
    const d = forkDigest(config, fork.version)
    if (d.every((b, i) => b === digest[i]))
      return fork.name === 'capella' || fork.name === 'deneb' || fork.name === 'electra' || fork.name === 'fulu'
        ? fork.name
        : undefined
  }
  return undefined
}

/** The light-client fork in force at a slot (its containers' shapes). */
export function lightClientForkAtSlot(config: BeaconConfig, slot: number): LightClientFork {
  const name = forkAtEpoch(config, epochAtSlot(config, slot)).name
  if (name === 'capella' || name === 'deneb' || name === 'electra' || name === 'fulu') return name
  throw new Error(`beacon: slot ${slot} is before Capella (${name}); the light client starts at Capella`)
}

const DOMAIN_SYNC_COMMITTEE = Uint8Array.from([7, 0, 0, 0])

/** compute_domain(DOMAIN_SYNC_COMMITTEE, fork version, genesis validators root). */
export function syncCommitteeDomain(config: BeaconConfig, version: Uint8Array): Uint8Array {
  const domain = new Uint8Array(32)
  domain.set(DOMAIN_SYNC_COMMITTEE, 0)
  domain.set(forkDataRoot(version, config.genesisValidatorsRoot).subarray(0, 28), 4)
  return domain
}
