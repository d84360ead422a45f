import { metadataLength } from './metadataLength.js'
import type { CodeRange } from './types.js'

/**
 * Runtime code as matching compares it: the metadata tail cut off (it differs with any change of
 * comments, paths or compiler settings that leave the code alone) and each range filled at
 * deployment (immutables, libraries) zeroed. A range past the cut makes it not this contract's code
 * (undefined).
 */
export function maskRuntimeCode(code: Uint8Array, masked: readonly CodeRange[]): Uint8Array | undefined {
  const end = code.length - metadataLength(code)
  const out = code.slice(0, end)
  for (const r of masked) {
    if (r.start + r.length > end) return undefined
    out.fill(0, r.start, r.start + r.length)
  }
  return out
}
