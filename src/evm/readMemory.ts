import type { RunState } from './types.js'

/** The memory an op names by offset and length (a zero length reads nothing, whatever the offset). */
export function readMemory(rs: RunState, offset: bigint, length: bigint): Uint8Array {
  return length === 0n ? new Uint8Array(0) : rs.memory.read(Number(offset), Number(length))
}

/** A copy of a finished frame's memory: its store up to the words in use (the store is allocated larger). */
export function readUsedMemory(memory: { _store: Uint8Array }, wordCount: bigint | undefined): Uint8Array {
  return memory._store.slice(0, Number(wordCount ?? 0n) * 32)
}
