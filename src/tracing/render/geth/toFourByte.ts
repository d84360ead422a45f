import { bytesToHex } from '@ethereumjs/util'
import type { CallTraceArena } from '../../recorder/types.js'

const COUNTED = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL'])

/**
 * geth's 4byteTracer: for every call (top call included) whose input has a 4-byte selector, a count
 * per `selector-<argument bytes>`; calls to precompiles and creations are not counted. Keys sorted,
 * as Go marshals a map.
 */
export function toFourByte(arena: CallTraceArena): Record<string, number> {
  const ids = new Map<string, number>()
  for (const node of arena.nodes) {
    if (!COUNTED.has(node.kind) || node.precompile || node.input.length < 4) continue
    const key = `${bytesToHex(node.input.subarray(0, 4))}-${node.input.length - 4}`
    ids.set(key, (ids.get(key) ?? 0) + 1)
  }
  return Object.fromEntries([...ids.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}
