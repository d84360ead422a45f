import { type BeaconConfig, parseBeaconConfig } from './beaconConfig.js'

/** The beacon chains edgetrace carries the config of (`--network`, or the execution chain id). */
export type KnownNetworkName = 'mainnet' | 'sepolia' | 'hoodi'

/** A known beacon chain: its execution chain id, genesis, slot length, fork schedule and blob schedule. */
export type KnownNetwork = {
  name: KnownNetworkName
  /** The execution chain's id (the config's DEPOSIT_CHAIN_ID). */
  chainId: bigint
  genesisValidatorsRoot: string
  /** Seconds since the epoch. */
  genesisTime: number
  secondsPerSlot: number
  /** The config's keys as the consensus specs' config.yaml names them (PRESET_BASE, each fork's version and epoch). */
  keys: Record<string, string>
  /** Fulu's blob-parameter-only forks (BLOB_SCHEDULE), and Electra's blob count: they enter Fulu's fork digest. */
  blobSchedule: readonly { epoch: number; maxBlobsPerBlock: number }[]
  maxBlobsPerBlockElectra: number
}

// Where the figures are from (each read, and checked against a second source):
// - mainnet: ethereum/consensus-specs configs/mainnet.yaml (commit a08d8a6e2b45): fork versions and
//   epochs Altair..Fulu, SLOT_DURATION_MS 12000, BLOB_SCHEDULE; genesis time and validators root from
//   a16z/helios ethereum/src/config/networks.rs (commit 1fbb9099ff57), whose forks agree.
// - sepolia: eth-clients/sepolia metadata/config.yaml (commit 129de385d8bb: genesis..Electra,
//   MIN_GENESIS_TIME + GENESIS_DELAY = the genesis time), Fulu and BLOB_SCHEDULE from ChainSafe/lodestar
//   packages/config/src/chainConfig/networks/sepolia.ts (commit 05b89de22b3f); genesis validators
//   root from helios' networks.rs, which agrees on every fork.
// - hoodi: eth-clients/hoodi metadata/config.yaml and metadata/genesis_validators_root.txt (commit
//   7f71638afc43), Fulu and BLOB_SCHEDULE from lodestar's networks/hoodi.ts (commit 101bf338425d); helios agrees.
// Published fork digests tie the mainnet figures together (knownNetworks.test: Prysm's and Nethermind's).
// Gloas is not carried: the light client's containers end at Fulu.
/** Altair..Fulu's versions and epochs as config keys. */
const forks = (versions: string[], epochs: number[]): Record<string, string> =>
  Object.fromEntries(
    ['ALTAIR', 'BELLATRIX', 'CAPELLA', 'DENEB', 'ELECTRA', 'FULU'].flatMap((name, i) => [
      [`${name}_FORK_VERSION`, versions[i]!],
      [`${name}_FORK_EPOCH`, String(epochs[i]!)],
    ]),
  )

export const KNOWN_NETWORKS: Readonly<Record<KnownNetworkName, KnownNetwork>> = {
  mainnet: {
    name: 'mainnet',
    chainId: 1n,
    genesisValidatorsRoot: '0x4b363db94e286120d76eb905340fdd4e54bfe9f06bf33ff6cf5ad27f511bfe95',
    genesisTime: 1606824023,
    secondsPerSlot: 12,
    keys: {
      PRESET_BASE: 'mainnet',
      GENESIS_FORK_VERSION: '0x00000000',
      ...forks(
        ['0x01000000', '0x02000000', '0x03000000', '0x04000000', '0x05000000', '0x06000000'],
        [74240, 144896, 194048, 269568, 364032, 411392],
      ),
    },
    blobSchedule: [
      { epoch: 412672, maxBlobsPerBlock: 15 },
      { epoch: 419072, maxBlobsPerBlock: 21 },
    ],
    maxBlobsPerBlockElectra: 9,
  },
  sepolia: {
    name: 'sepolia',
    chainId: 11155111n,
    genesisValidatorsRoot: '0xd8ea171f3c94aea21ebc42a1ed61052acf3f9209c00e4efbaaddac09ed9b8078',
    genesisTime: 1655733600,
    secondsPerSlot: 12,
    keys: {
      PRESET_BASE: 'mainnet',
      GENESIS_FORK_VERSION: '0x90000069',
      ...forks(
        ['0x90000070', '0x90000071', '0x90000072', '0x90000073', '0x90000074', '0x90000075'],
        [50, 100, 56832, 132608, 222464, 272640],
      ),
    },
    blobSchedule: [
      { epoch: 274176, maxBlobsPerBlock: 15 },
      { epoch: 275712, maxBlobsPerBlock: 21 },
    ],
    maxBlobsPerBlockElectra: 9,
  },
  hoodi: {
    name: 'hoodi',
    chainId: 560048n,
    genesisValidatorsRoot: '0x212f13fc4df078b6cb7db228f1c8307566dcecf900867401a92023d7ba99cb5f',
    genesisTime: 1742213400,
    secondsPerSlot: 12,
    keys: {
      PRESET_BASE: 'mainnet',
      GENESIS_FORK_VERSION: '0x10000910',
      ...forks(
        ['0x20000910', '0x30000910', '0x40000910', '0x50000910', '0x60000910', '0x70000910'],
        [0, 0, 0, 0, 2048, 50688],
      ),
    },
    blobSchedule: [
      { epoch: 52480, maxBlobsPerBlock: 15 },
      { epoch: 54016, maxBlobsPerBlock: 21 },
    ],
    maxBlobsPerBlockElectra: 9,
  },
}

/** `--network`'s names. */
export const KNOWN_NETWORK_NAMES = Object.keys(KNOWN_NETWORKS) as KnownNetworkName[]

/** The known beacon chain of an execution chain id, or undefined. */
export const knownNetworkOfChainId = (chainId: bigint): KnownNetwork | undefined =>
  Object.values(KNOWN_NETWORKS).find((n) => n.chainId === chainId)

/** A known network's config as the light client reads it. */
export const knownNetworkConfig = (network: KnownNetwork): BeaconConfig =>
  parseBeaconConfig(network.keys, network.genesisValidatorsRoot)
