import { signatureHash } from '../utils/abi/createSignatureTable.js'
import type { AbiEntry, AbiParam } from './types.js'

/** A parameter's canonical type: tuples spelled out as `(…)` with their array suffix. */
function canonicalType(p: AbiParam): string {
  if (p.type.startsWith('tuple')) return `(${(p.components ?? []).map(canonicalType).join(',')})${p.type.slice(5)}`
  return p.type
}

const cache = new WeakMap<readonly AbiEntry[], Map<string, { name: string; signature: string }>>()

/** An ABI's functions by their 4-byte selector (`0x…`, lowercase): the name and the full signature (kept per ABI). */
export function abiSelectors(abi: readonly AbiEntry[]): Map<string, { name: string; signature: string }> {
  const cached = cache.get(abi)
  if (cached) return cached
  const out = new Map<string, { name: string; signature: string }>()
  for (const e of abi) {
    if (e.type !== 'function' || !e.name) continue
    const signature = `${e.name}(${(e.inputs ?? []).map(canonicalType).join(',')})`
    out.set(signatureHash(signature).slice(0, 10), { name: e.name, signature })
  }
  cache.set(abi, out)
  return out
}
