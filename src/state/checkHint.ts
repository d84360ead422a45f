import type { CacheKeyKind } from '../utils/cacheKeys.js'

/** The kinds of entry that only steer what is prefetched: never part of an answer. */
export type HintKind = Extract<CacheKeyKind, 'footprint' | 'calleeCode' | 'callAccessList' | 'blockAccessLists'>

/**
 * The most addresses and storage keys (counted together) a hint read from a persistent tier may
 * list: what a poisoned hint can cost is this much prefetching, proven and then unused. A footprint's
 * bound is also what its writer keeps (rememberFootprint); an access list over its bound is not
 * persisted.
 */
export const HINT_MAX_ITEMS = {
  footprint: 2_000,
  callAccessList: 8_192,
  blockAccessLists: 32_768,
} as const

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const WORD = /^0x[0-9a-fA-F]{64}$/
const LOWER_ADDRESS = /^0x[0-9a-f]{40}$/
const LOWER_WORD = /^0x[0-9a-f]{64}$/

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
/** Only these keys, each of them (but `optional` ones) present. */
const hasKeys = (v: Record<string, unknown>, required: readonly string[], optional: readonly string[] = []) =>
  required.every((k) => k in v) && Object.keys(v).every((k) => required.includes(k) || optional.includes(k))

/** Counts an access list's items (addresses and storage keys), or -1 when it is not one. */
function accessListItems(v: unknown): number {
  if (!Array.isArray(v)) return -1
  let items = 0
  for (const e of v) {
    if (!isObject(e) || !hasKeys(e, ['address', 'storageKeys'])) return -1
    if (typeof e.address !== 'string' || !ADDRESS.test(e.address) || !Array.isArray(e.storageKeys)) return -1
    if (!e.storageKeys.every((k) => typeof k === 'string' && WORD.test(k))) return -1
    items += 1 + e.storageKeys.length
  }
  return items
}

/** Counts a stored footprint's items (accounts and slots), or -1 when it is not one. */
function footprintItems(v: unknown): number {
  if (!isObject(v) || !hasKeys(v, ['recordedBy', 'entries']) || typeof v.recordedBy !== 'string') return -1
  if (!Array.isArray(v.entries)) return -1
  let items = 0
  for (const e of v.entries) {
    if (!isObject(e) || !hasKeys(e, ['address', 'slots'], ['codeHash'])) return -1
    if (typeof e.address !== 'string' || !LOWER_ADDRESS.test(e.address) || !Array.isArray(e.slots)) return -1
    if (e.codeHash !== undefined && (typeof e.codeHash !== 'string' || !LOWER_WORD.test(e.codeHash))) return -1
    if (!e.slots.every((s) => typeof s === 'string' && LOWER_WORD.test(s))) return -1
    items += 1 + e.slots.length
  }
  return items
}

/**
 * Whether a hint's stored form is well-formed and within its bound (HINT_MAX_ITEMS): a footprint
 * (`{recordedBy, entries: [{address, slots, codeHash?}]}`), a callee's code hash, or the upstream's
 * access list of a call or of a block's transactions (`[{address, storageKeys}]`). A hint cannot be
 * checked against anything (it is a guess of what will be read); this bounds what trusting it costs.
 */
export function checkHint(kind: HintKind, stored: unknown): boolean {
  switch (kind) {
    case 'calleeCode':
      return typeof stored === 'string' && LOWER_WORD.test(stored)
    case 'footprint': {
      const items = footprintItems(stored)
      return items >= 0 && items <= HINT_MAX_ITEMS.footprint
    }
    case 'callAccessList':
    case 'blockAccessLists': {
      const items = accessListItems(stored)
      return items >= 0 && items <= HINT_MAX_ITEMS[kind]
    }
  }
}
