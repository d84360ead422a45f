import { describe, expect, it } from 'vitest'
import { computeForkDigest } from './computeForkDigest.js'
import { KNOWN_NETWORKS, knownNetworkConfig, knownNetworkOfChainId } from './knownNetworks.js'
import { parseBeaconConfigFile } from './parseBeaconConfigFile.js'

const digest = (name: keyof typeof KNOWN_NETWORKS, epoch: number) => {
  const network = KNOWN_NETWORKS[name]
  return `0x${Buffer.from(computeForkDigest(knownNetworkConfig(network), epoch, network)).toString('hex')}`
}

// A fork digest commits to the fork version, the genesis validators root and (from Fulu) the blob
// schedule: equal to the published ones, the figures carried here are the real chain's.
describe('known beacon networks', () => {
  it("mainnet's fork digests are the published ones, fork by fork and through Fulu's blob-parameter forks", () => {
    // Prysm's p2p topic test (OffchainLabs/prysm beacon-chain/p2p: ad532ceb Electra, afcaaba0 Altair,
    // cc2c5cdb Fulu) and Nethermind's fork-digest cases (phase0, Capella, Deneb, Electra, Fulu, BPO1, BPO2).
    expect(digest('mainnet', 0)).toBe('0xb5303f2a')
    expect(digest('mainnet', 74240)).toBe('0xafcaaba0') // Altair
    expect(digest('mainnet', 194048)).toBe('0xbba4da96') // Capella
    expect(digest('mainnet', 269568)).toBe('0x6a95a1a9') // Deneb
    expect(digest('mainnet', 364032)).toBe('0xad532ceb') // Electra
    expect(digest('mainnet', 411392)).toBe('0xcc2c5cdb') // Fulu: Electra's blob parameters mixed in
    expect(digest('mainnet', 412671)).toBe('0xcc2c5cdb')
    expect(digest('mainnet', 412672)).toBe('0xcb0d1acc') // BPO1: 15 blobs
    expect(digest('mainnet', 419072)).toBe('0x8c9f62fe') // BPO2: 21 blobs
  })

  it("sepolia's and hoodi's current digests are the ones their nodes announce", () => {
    // As crawlers see them on the wire (ENR eth2 fields): Fulu with the second blob-parameter fork.
    expect(digest('sepolia', 300_000)).toBe('0x74d01459')
    expect(digest('hoodi', 60_000)).toBe('0xc6ecb76c')
  })

  it('are found by their execution chain id', () => {
    expect(knownNetworkOfChainId(1n)?.name).toBe('mainnet')
    expect(knownNetworkOfChainId(11155111n)?.name).toBe('sepolia')
    expect(knownNetworkOfChainId(560048n)?.name).toBe('hoodi')
    expect(knownNetworkOfChainId(31337n)).toBeUndefined()
  })

  it('carry every light-client fork from Capella to Fulu, each with its version', () => {
    for (const network of Object.values(KNOWN_NETWORKS)) {
      const names = knownNetworkConfig(network).forks.map((f) => f.name)
      expect(names).toEqual(['genesis', 'altair', 'bellatrix', 'capella', 'deneb', 'electra', 'fulu'])
      expect(knownNetworkConfig(network).preset.name).toBe('mainnet')
    }
  })
})

describe('a consensus specs config file', () => {
  it('reads KEY: value lines (quoted or not, comments, nested lists skipped), the slot from SLOT_DURATION_MS', () => {
    const keys = parseBeaconConfigFile(
      [
        '# Extends the minimal preset',
        "PRESET_BASE: 'minimal'",
        'CONFIG_NAME: "devnet"',
        'GENESIS_FORK_VERSION: 0x00000001  # genesis',
        'ELECTRA_FORK_VERSION: 0x05000001',
        'ELECTRA_FORK_EPOCH: 0',
        'FULU_FORK_EPOCH: 18446744073709551615',
        'SLOT_DURATION_MS: 6000',
        'BLOB_SCHEDULE:',
        '  - EPOCH: 412672',
        '    MAX_BLOBS_PER_BLOCK: 15',
        '',
      ].join('\n'),
    )
    expect(keys).toMatchObject({
      PRESET_BASE: 'minimal',
      CONFIG_NAME: 'devnet',
      GENESIS_FORK_VERSION: '0x00000001',
      ELECTRA_FORK_EPOCH: '0',
      SECONDS_PER_SLOT: '6',
    })
    expect(keys.BLOB_SCHEDULE).toBeUndefined()
    expect(keys.EPOCH).toBeUndefined()
  })

  it('names a line that is not KEY: value', () => {
    expect(() => parseBeaconConfigFile('PRESET_BASE: minimal\nnot a key\n', 'devnet.yaml')).toThrow(
      'devnet.yaml: line 2 is not KEY: value (not a key)',
    )
  })
})
