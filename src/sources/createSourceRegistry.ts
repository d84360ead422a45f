import { keccak256 } from '../utils/keccak256.js'
import { maskRuntimeCode } from './maskRuntimeCode.js'
import { metadataLength } from './metadataLength.js'
import { mergeRanges } from './parseBytecode.js'
import { embeddedMetadata } from './readCreationCode.js'
import type { CodeRange, SourceContract } from './types.js'

/** Known contracts, found by the runtime code that runs (never by an address). */
export type SourceRegistry = {
  /** Adds compiled contracts (those without runtime code, or whose masked ranges fall outside it, are skipped). */
  add(contracts: Iterable<SourceContract>): void
  /**
   * The contract whose runtime code this is, metadata (its own, and that of the contracts it
   * creates) and deployment-filled ranges aside.
   */
  match(runtimeCode: Uint8Array): SourceContract | undefined
  /**
   * The contract whose creation bytecode this init code begins with (what follows it: the
   * constructor's arguments), the runtime code's metadata and linked libraries aside.
   */
  matchCreation(initCode: Uint8Array): SourceContract | undefined
  /** How many contracts it holds. */
  readonly size: number
}

const keyOf = (bytes: Uint8Array) => {
  const h = keccak256(bytes)
  let s = ''
  for (const b of h) s += b.toString(16).padStart(2, '0')
  return s
}

/** A copy of `code` with `ranges` zeroed. */
const maskCode = (code: Uint8Array, ranges: readonly CodeRange[]) => {
  const out = code.slice()
  for (const r of ranges) out.fill(0, r.start, r.start + r.length)
  return out
}

const shapeOf = (ranges: readonly CodeRange[]) => ranges.map((r) => `${r.start}+${r.length}`).join(',')

/**
 * What matching masks in a contract's runtime code: its deployment-filled ranges (immutables,
 * libraries), and the metadata of the contracts its code creates (`new C()` puts C's creation code,
 * with C's metadata, in it: another compilation of the same code gives it another hash), found in
 * the compiled code before its own metadata tail (which matching cuts off).
 */
function runtimeRanges(contract: SourceContract): readonly CodeRange[] {
  const end = contract.runtime.length - metadataLength(contract.runtime)
  const embedded = embeddedMetadata(contract.runtime).filter((r) => r.start + r.length <= end)
  return embedded.length === 0 ? contract.masked : mergeRanges(contract.masked, embedded)
}

/**
 * A registry of compiled contracts. Each is indexed by the hash of its masked runtime code; contracts
 * are grouped by the ranges they mask, and code to match is masked with each group's ranges in turn
 * (the same code deployed with other immutable values masks to the same hash). Same masked code twice
 * (one contract in two build outputs): the first added wins.
 */
export function createSourceRegistry(contracts: Iterable<SourceContract> = []): SourceRegistry {
  const groups = new Map<string, { ranges: readonly CodeRange[]; byHash: Map<string, SourceContract> }>()
  // Creation code, grouped by its length and masked ranges: init code is cut to each group's length
  // (the constructor's arguments follow) and masked with its ranges.
  const creations = new Map<
    string,
    { length: number; ranges: readonly CodeRange[]; byHash: Map<string, SourceContract> }
  >()
  let size = 0
  const registry: SourceRegistry = {
    add(list) {
      for (const c of list) {
        if (c.runtime.length === 0) continue
        const ranges = runtimeRanges(c)
        const masked = maskRuntimeCode(c.runtime, ranges)
        if (!masked) continue
        const shape = shapeOf(ranges)
        let group = groups.get(shape)
        if (!group) {
          group = { ranges, byHash: new Map() }
          groups.set(shape, group)
        }
        const key = keyOf(masked)
        if (!group.byHash.has(key)) {
          group.byHash.set(key, c)
          size++
        }
        if (c.creation && c.creation.code.length > 0) {
          const { code, masked: ranges } = c.creation
          const shape = `${code.length}:${shapeOf(ranges)}`
          let byLength = creations.get(shape)
          if (!byLength) creations.set(shape, (byLength = { length: code.length, ranges, byHash: new Map() }))
          const key = keyOf(maskCode(code, ranges))
          if (!byLength.byHash.has(key)) byLength.byHash.set(key, c)
        }
      }
    },
    matchCreation(init) {
      for (const group of creations.values()) {
        if (init.length < group.length) continue
        const found = group.byHash.get(keyOf(maskCode(init.subarray(0, group.length), group.ranges)))
        if (found) return found
      }
      return undefined
    },
    match(code) {
      if (code.length === 0) return undefined
      for (const group of groups.values()) {
        const masked = maskRuntimeCode(code, group.ranges)
        if (!masked) continue
        const found = group.byHash.get(keyOf(masked))
        if (found) return found
      }
      return undefined
    },
    get size() {
      return size
    },
  }
  registry.add(contracts)
  return registry
}

/**
 * `registry` (when there is one), then `more` — contracts found elsewhere (Sourcify) — for code it
 * does not know; `registry` itself when there is nothing more.
 */
export function withContracts(
  registry: SourceRegistry | undefined,
  more: readonly SourceContract[],
): SourceRegistry | undefined {
  if (more.length === 0) return registry
  const extra = createSourceRegistry(more)
  if (!registry) return extra
  return {
    add: (contracts) => extra.add(contracts),
    match: (code) => registry.match(code) ?? extra.match(code),
    matchCreation: (init) => registry.matchCreation(init) ?? extra.matchCreation(init),
    get size() {
      return registry.size + extra.size
    },
  }
}
