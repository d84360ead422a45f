/**
 * Heimdall's spans of block producers (Erigon's polygon/heimdall span_id.go): span 0 is blocks
 * 0…255, every later span 6,400 blocks. A span's validator set is named by the sprint-end header
 * just before it (the last block of the span before).
 */
export const SPAN_LENGTH = 6400n
export const ZEROTH_SPAN_END = 255n

/** The span a block belongs to. */
export function spanIdAt(number: bigint): bigint {
  return number <= ZEROTH_SPAN_END ? 0n : 1n + (number - ZEROTH_SPAN_END - 1n) / SPAN_LENGTH
}

/** A span's first block. */
export function spanStart(id: bigint): bigint {
  return id === 0n ? 0n : ZEROTH_SPAN_END + 1n + (id - 1n) * SPAN_LENGTH
}

/** A span's last block. */
export function spanEnd(id: bigint): bigint {
  return id === 0n ? ZEROTH_SPAN_END : ZEROTH_SPAN_END + id * SPAN_LENGTH
}
