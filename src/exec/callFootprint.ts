import { type Account, KECCAK256_NULL, bytesToHex, equalsBytes } from '@ethereumjs/util'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import { HINT_MAX_ITEMS } from '../state/checkHint.js'
import type { OverlayStateManager } from '../state/createOverlayStateManager.js'
import type { Hex } from '../types/hex.js'
import { cacheKeys } from '../utils/cacheKeys.js'
import type { Engine } from './createEngine.js'
import type { CallArgs } from './types.js'

/** One account a call read: the slots it read, and the code hash when it ran or read the account's code. */
export type FootprintEntry = { address: Hex; slots: Hex[]; codeHash?: Hex }

/**
 * The most slots and accounts one remembered footprint holds (a wider call sends the first ones):
 * what a persistent tier's reader accepts (checkHint).
 */
export const FOOTPRINT_MAX_ITEMS = HINT_MAX_ITEMS.footprint

/** The first four bytes of the call data ('0x' for shorter data): what picks a contract's function. */
export function callSelector(args: CallArgs): string {
  const data = (args.data ?? '0x').toLowerCase()
  return data.length >= 10 ? data.slice(0, 10) : '0x'
}

const isHex = (v: unknown): v is Hex => typeof v === 'string' && /^0x[0-9a-f]*$/.test(v)

/**
 * A footprint as stored: its entries, and which call at which block recorded it (the same call run
 * again at the same block — eth_estimateGas's probes, say — reads the same state: not recorded again).
 */
type StoredFootprint = { recordedBy: string; entries: FootprintEntry[] }

/** A stored footprint as it is used: well-formed entries only (it came from a persistent store). */
function parseFootprint(stored: unknown): FootprintEntry[] | undefined {
  const raw = (stored as Partial<StoredFootprint> | undefined)?.entries
  if (!Array.isArray(raw)) return undefined
  return raw.filter(
    (e): e is FootprintEntry =>
      isHex(e?.address) &&
      Array.isArray(e.slots) &&
      e.slots.every(isHex) &&
      (e.codeHash === undefined || isHex(e.codeHash)),
  )
}

/**
 * Remembers what a call read from the base state — every account, slot and code, as the overlay saw
 * them first — under the code hash of the contract it called and its selector, and which code that
 * address held. A later call of the same function (at any block) can then ask for all of it in its
 * first round trip. Bounded by the memory cache (and kept in IndexedDB in the browser, or shared
 * with other processes through --cache.redis); only a hint: what is fetched on its say-so is
 * verified like anything else, so a poisoned one costs at most FOOTPRINT_MAX_ITEMS proofs.
 */
export function rememberFootprint(engine: Engine, args: CallArgs, state: OverlayStateManager): void {
  if (!args.to) return
  const to = args.to.toLowerCase() as Hex
  const callee = state.baseReads.accounts.get(to)
  if (!callee || equalsBytes(callee.codeHash, KECCAK256_NULL)) return
  const codeHash = bytesToHex(callee.codeHash)
  const key = cacheKeys.footprint(codeHash, callSelector(args))
  const recordedBy = `${state.block.hash}:${args.from ?? ''}:${args.value ?? ''}:${args.data ?? ''}`
  if (engine.cache.get<Partial<StoredFootprint>>(key)?.recordedBy === recordedBy) return
  const entries: FootprintEntry[] = []
  let items = 0
  for (const [address, account] of state.baseReads.accounts) {
    if (items >= FOOTPRINT_MAX_ITEMS) break
    const read = state.baseReads.storage.get(address)
    // The account counts as one item too: account and slots together stay within the bound.
    const slots = read ? [...read.keys()].slice(0, FOOTPRINT_MAX_ITEMS - items - 1) : []
    items += 1 + slots.length
    const entry: FootprintEntry = { address, slots }
    if (account && state.baseReads.code.has(address) && !equalsBytes(account.codeHash, KECCAK256_NULL)) {
      entry.codeHash = bytesToHex(account.codeHash)
    }
    entries.push(entry)
  }
  engine.cache.set(key, { recordedBy, entries } satisfies StoredFootprint, 128 + 100 * items)
  engine.cache.set(cacheKeys.calleeCode(to), codeHash, 160)
}

/**
 * What a call will likely read, from the footprint of the last call to the same code with the same
 * selector: undefined when none was remembered. Reads the persistent tier first when there is one.
 * With `at` (the call's block, when its header is known already), what is proven there is left out.
 */
export async function predictFootprint(
  engine: Engine,
  args: CallArgs,
  at?: VerifiedHeader,
): Promise<FootprintEntry[] | undefined> {
  if (!args.to) return undefined
  const calleeKey = cacheKeys.calleeCode(args.to.toLowerCase())
  if (engine.cache.restore) await engine.cache.restore([calleeKey])
  const codeHash = engine.cache.get<unknown>(calleeKey)
  if (!isHex(codeHash)) return undefined
  const key = cacheKeys.footprint(codeHash, callSelector(args))
  if (engine.cache.restore) await engine.cache.restore([key])
  const entries = parseFootprint(engine.cache.get<unknown>(key))
  if (!entries) return undefined
  // Code already held (in memory or the persistent tier) is not asked for again.
  const codeKeys = entries.flatMap((e) => (e.codeHash ? [cacheKeys.code(e.codeHash)] : []))
  if (engine.cache.restore && codeKeys.length > 0) await engine.cache.restore(codeKeys)
  const held = (e: FootprintEntry) => {
    const account = at && engine.cache.get<Account | null>(cacheKeys.account(at.hash, e.address))
    if (account === undefined) return false
    if (account === null) return true
    const root = bytesToHex(account.storageRoot)
    return e.slots.every((slot) => engine.cache.has(cacheKeys.slot(root, slot)))
  }
  return entries
    .filter((e) => !held(e))
    .map((e) =>
      e.codeHash && engine.cache.has(cacheKeys.code(e.codeHash)) ? { address: e.address, slots: e.slots } : e,
    )
}
