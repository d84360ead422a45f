import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import type { Hex } from '../types/hex.js'

/**
 * The bytes a shared store (Redis) keeps for a persistent entry's stored form (see
 * createPersistentCodec): JSON whose byte strings and bigints are tagged ({"$b": hex}, {"$n": hex}),
 * so any process, in any language, reads it back to the same structured-clone value. A store's
 * bytes are not trusted: what does not parse, or is larger than `maxBytes`, reads as undefined.
 */
export function encodeSharedValue(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Uint8Array) return { $b: bytesToHex(v) }
    if (typeof v === 'bigint') return { $n: `0x${v.toString(16)}` }
    return v
  })
}

export function decodeSharedValue(text: string, maxBytes: number): unknown {
  if (text.length > maxBytes) return undefined
  try {
    return JSON.parse(text, (_key, v: unknown) => {
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
        const tagged = v as Record<string, unknown>
        const keys = Object.keys(tagged)
        if (keys.length === 1 && typeof tagged.$b === 'string' && /^0x([0-9a-f]{2})*$/.test(tagged.$b))
          return hexToBytes(tagged.$b as Hex)
        if (keys.length === 1 && typeof tagged.$n === 'string' && /^0x[0-9a-f]{1,64}$/.test(tagged.$n))
          return BigInt(tagged.$n)
      }
      return v
    })
  } catch {
    return undefined
  }
}
