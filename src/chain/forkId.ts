import type { Common } from '@ethereumjs/common'
import type { Hex } from '../types/hex.js'

/** CRC-32 (IEEE 802.3, reflected 0xedb88320) — the checksum EIP-2124 fork identifiers use. */
const TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

/** Continues a CRC-32 over more bytes (Go's crc32.Update with the IEEE table). */
function crc32Update(crc: number, bytes: Uint8Array): number {
  let c = ~crc >>> 0
  for (const b of bytes) c = TABLE[(c ^ b) & 0xff]! ^ (c >>> 8)
  return ~c >>> 0
}

function uint64BigEndian(value: bigint): Uint8Array {
  const out = new Uint8Array(8)
  new DataView(out.buffer).setBigUint64(0, value)
  return out
}

/** A chain's fork activations as EIP-2124 counts them: block numbers, then timestamps. */
export type ForkSchedule = { byBlock: bigint[]; byTime: bigint[] }

/**
 * The forks of a chain as geth's gatherForks lists them: every scheduled block number and timestamp,
 * sorted and deduplicated, without those at genesis (block 0, or a time not after the genesis time).
 * The merge is not a block fork (Paris activates by difficulty); its netsplit block, when the chain
 * has one, is.
 */
export function gatherForks(common: Common, genesisTime: bigint): ForkSchedule {
  const byBlock = new Set<bigint>()
  const byTime = new Set<bigint>()
  for (const fork of common.hardforks()) {
    if (fork.name === 'chainstart' || fork.name === 'paris') continue
    if (fork.block !== null && fork.block !== undefined) byBlock.add(BigInt(fork.block))
    else if (fork.timestamp !== null && fork.timestamp !== undefined) byTime.add(BigInt(fork.timestamp))
  }
  const sorted = (s: Set<bigint>) => [...s].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return {
    byBlock: sorted(byBlock).filter((b) => b > 0n),
    byTime: sorted(byTime).filter((t) => t > genesisTime),
  }
}

/**
 * A chain's forks as gatherForks lists them — none on a chain whose every block runs one fixed
 * hardfork (--hardfork): nothing activates after its genesis.
 */
export function chainForks(common: Common, genesisTime: bigint, fixedHardfork: string | undefined): ForkSchedule {
  return fixedHardfork ? { byBlock: [], byTime: [] } : gatherForks(common, genesisTime)
}

/**
 * The EIP-2124 fork hash at a head (block number and time): CRC-32 of the genesis hash, continued
 * with each passed fork's number as 8 big-endian bytes. `0x` and 4 bytes, as eth_config writes it.
 */
export function forkHash(genesisHash: Uint8Array, forks: ForkSchedule, head: bigint, time: bigint): Hex {
  let crc = crc32Update(0, genesisHash)
  for (const block of forks.byBlock) if (block <= head) crc = crc32Update(crc, uint64BigEndian(block))
  for (const t of forks.byTime) if (t <= time) crc = crc32Update(crc, uint64BigEndian(t))
  return `0x${crc.toString(16).padStart(8, '0')}` as Hex
}
