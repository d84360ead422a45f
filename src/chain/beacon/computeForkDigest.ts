import { sha256 } from '@noble/hashes/sha2.js'
import { type BeaconConfig, forkAtEpoch, forkDataRoot } from './beaconConfig.js'
import { uint64Chunk } from './ssz.js'

/** Fulu's blob parameters: BLOB_SCHEDULE, and Electra's count that holds before its first entry. */
export type BlobParameters = {
  blobSchedule: readonly { epoch: number; maxBlobsPerBlock: number }[]
  maxBlobsPerBlockElectra: number
}

/**
 * compute_fork_digest(genesis_validators_root, epoch) as Fulu defines it (EIP-7892): the fork data
 * root's first 4 bytes, and from Fulu on that root XORed with sha256(epoch ‖ max blobs) of the blob
 * parameters in force (each a little-endian uint64) — so each blob-parameter-only fork has a digest.
 */
export function computeForkDigest(config: BeaconConfig, epoch: number, blobs: BlobParameters): Uint8Array {
  const base = forkDataRoot(forkAtEpoch(config, epoch).version, config.genesisValidatorsRoot)
  const fulu = config.forks.find((f) => f.name === 'fulu')
  if (!fulu || epoch < fulu.epoch) return base.subarray(0, 4)
  const electra = config.forks.find((f) => f.name === 'electra')
  const entry = [...blobs.blobSchedule].sort((a, b) => b.epoch - a.epoch).find((e) => epoch >= e.epoch) ?? {
    epoch: electra?.epoch ?? 0,
    maxBlobsPerBlock: blobs.maxBlobsPerBlockElectra,
  }
  const mix = sha256(
    new Uint8Array([
      ...uint64Chunk(BigInt(entry.epoch)).subarray(0, 8),
      ...uint64Chunk(BigInt(entry.maxBlobsPerBlock)).subarray(0, 8),
    ]),
  )
  return base.subarray(0, 4).map((b, i) => b ^ mix[i]!)
}
