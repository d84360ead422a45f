import { keccak256 } from '../keccak256.js'
import { type AbiItem, parseSignature } from './parseSignature.js'

/** Function and error selectors (4 bytes) and event topics (32 bytes), lowercase hex → the items they name. */
export type SignatureTable = { selectors: Map<string, AbiItem[]>; topics: Map<string, AbiItem[]> }

const hex = (bytes: Uint8Array) => `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`

/** keccak256 of a canonical signature: an event's topic; its first 4 bytes, a function's or error's selector. */
export const signatureHash = (signature: string): string => hex(keccak256(new TextEncoder().encode(signature)))

/** Same names and same indexed parameters (ERC-20's and ERC-721's Transfer differ only there). */
const sameParams = (a: AbiItem, b: AbiItem) =>
  a.params.map((p) => `${p.name}${p.indexed}`).join() === b.params.map((p) => `${p.name}${p.indexed}`).join()

/**
 * A table of signatures (human-readable lines or parsed items), each selector and topic computed
 * with keccak from its canonical signature — never typed in by hand.
 */
export function createSignatureTable(entries: readonly (string | AbiItem)[]): SignatureTable {
  const selectors = new Map<string, AbiItem[]>()
  const topics = new Map<string, AbiItem[]>()
  for (const entry of entries) {
    const item = typeof entry === 'string' ? parseSignature(entry) : entry
    const hash = signatureHash(item.signature)
    const [map, key] = item.kind === 'event' ? [topics, hash] : [selectors, hash.slice(0, 10)]
    const list = map.get(key) ?? []
    if (!list.some((other) => other.signature === item.signature && sameParams(other, item))) list.push(item)
    map.set(key, list)
  }
  return { selectors, topics }
}
