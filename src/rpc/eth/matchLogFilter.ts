import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { keccak256 } from '../../utils/keccak256.js'
import type { LogFilter } from './parseLogFilter.js'

/** Whether a 2048-bit logs bloom has the three bits `value` sets (the yellow paper's M3:2048). */
function bloomHas(bloom: Uint8Array, value: Uint8Array): boolean {
  const h = keccak256(value)
  for (let i = 0; i < 6; i += 2) {
    const bit = ((h[i]! << 8) | h[i + 1]!) & 2047
    if ((bloom[256 - 1 - (bit >> 3)]! & (1 << (bit & 7))) === 0) return false
  }
  return true
}

/**
 * Whether a block whose header carries `bloom` may hold a log the filter matches: one of the
 * addresses, and at each constrained position one of the topics, set in the bloom (geth's
 * bloomFilter). A bloom has no false negatives, so a block it rules out has no matching log; an
 * open filter reads only the blocks with any log.
 */
export function bloomMayMatch(bloom: Uint8Array, filter: LogFilter): boolean {
  // An empty bloom: the block has no log at all (what an open filter must skip).
  if (bloom.every((b) => b === 0)) return false
  const any = (values: string[]) =>
    values.length === 0 || values.some((v) => bloomHas(bloom, hexToBytes(v as `0x${string}`)))
  return any(filter.addresses) && filter.topics.every(any)
}

/** Whether one log matches the filter (geth's filterLogs): address, then topics position by position. */
export function logMatches(
  log: { address: Uint8Array | string; topics: readonly (Uint8Array | string)[] },
  filter: LogFilter,
): boolean {
  const hex = (v: Uint8Array | string) => (typeof v === 'string' ? v.toLowerCase() : bytesToHex(v))
  if (filter.addresses.length > 0 && !filter.addresses.includes(hex(log.address) as never)) return false
  if (filter.topics.length > log.topics.length) return false
  return filter.topics.every(
    (alternatives, i) => alternatives.length === 0 || alternatives.includes(hex(log.topics[i]!) as never),
  )
}
