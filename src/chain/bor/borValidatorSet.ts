import { bytesToBigInt, bytesToHex } from '@ethereumjs/util'
import { BaseError } from '../../errors/base.js'
import type { Hex } from '../../types/hex.js'

/**
 * Bor's validator set (consensus/bor/valset, Tendermint's proposer priority), on int64 values as Go
 * keeps them: a validator's voting power and proposer priority, the set sorted by address.
 */
export type BorValidator = { address: Hex; power: bigint; priority: bigint; id: bigint }

export type BorValidatorSet = {
  validators: BorValidator[]
  proposer: BorValidator | undefined
  /** The total voting power as last computed; 0n until it is (bor caches it the same way). */
  total: bigint
}

export class BorValidatorSetError extends BaseError {
  override name = 'BorValidatorSetError'
}

const INT64_MAX = 2n ** 63n - 1n
const INT64_MIN = -(2n ** 63n)
/** The most total voting power a set may have (int64 max / 8). */
export const MAX_TOTAL_VOTING_POWER = INT64_MAX / 8n
/** Priorities are kept within this many times the total power of each other. */
const PRIORITY_WINDOW_SIZE_FACTOR = 2n

const clip = (v: bigint) => (v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : v)
const byAddress = (a: BorValidator, b: BorValidator) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0)
const copyValidator = (v: BorValidator): BorValidator => ({ ...v })
/** Floor division (Go's big.Int Div for a positive divisor). */
const floorDiv = (a: bigint, b: bigint) => {
  const q = a / b
  return a % b !== 0n && a < 0n ? q - 1n : q
}

export function copyValidatorSet(set: BorValidatorSet): BorValidatorSet {
  // As bor's Copy: the validators copied, the proposer shared, the cached total kept.
  return { validators: set.validators.map(copyValidator), proposer: set.proposer, total: set.total }
}

export function totalVotingPower(set: BorValidatorSet): bigint {
  if (set.total === 0n) {
    let sum = 0n
    for (const v of set.validators) {
      sum = clip(sum + v.power)
      if (sum > MAX_TOTAL_VOTING_POWER) throw new BorValidatorSetError(`total voting power ${sum} exceeds the maximum`)
    }
    set.total = sum
  }
  return set.total
}

/** The higher priority wins; on a tie, the lower address (bor's Validator.Cmp). */
function more(a: BorValidator | undefined, b: BorValidator): BorValidator {
  if (!a) return b
  if (a.priority !== b.priority) return a.priority > b.priority ? a : b
  return a.address < b.address ? a : b
}

function rescalePriorities(set: BorValidatorSet, diffMax: bigint): void {
  if (diffMax <= 0n || set.validators.length === 0) return
  let max = INT64_MIN
  let min = INT64_MAX
  for (const v of set.validators) {
    if (v.priority < min) min = v.priority
    if (v.priority > max) max = v.priority
  }
  const diff = max - min < 0n ? min - max : max - min
  const ratio = (diff + diffMax - 1n) / diffMax
  // Go's int64 division truncates toward zero, as bigint's does.
  if (diff > diffMax) for (const v of set.validators) v.priority = v.priority / ratio
}

function shiftByAveragePriority(set: BorValidatorSet): void {
  let sum = 0n
  for (const v of set.validators) sum += v.priority
  const average = floorDiv(sum, BigInt(set.validators.length))
  for (const v of set.validators) v.priority = clip(v.priority - average)
}

/** Moves the proposer on `times` times (bor's IncrementProposerPriority). */
export function incrementProposerPriority(set: BorValidatorSet, times = 1): void {
  if (set.validators.length === 0) throw new BorValidatorSetError('empty validator set')
  const total = totalVotingPower(set)
  rescalePriorities(set, PRIORITY_WINDOW_SIZE_FACTOR * total)
  shiftByAveragePriority(set)
  let proposer: BorValidator | undefined
  for (let i = 0; i < times; i++) {
    for (const v of set.validators) v.priority = clip(v.priority + v.power)
    proposer = undefined
    for (const v of set.validators) proposer = more(proposer, v)
    proposer!.priority = clip(proposer!.priority - total)
  }
  set.proposer = proposer
}

/** The proposer (found from the priorities when none is set). */
export function proposerOf(set: BorValidatorSet): BorValidator | undefined {
  if (set.validators.length === 0) return undefined
  if (!set.proposer) {
    let found: BorValidator | undefined
    for (const v of set.validators) found = more(found, v)
    set.proposer = found
  }
  return set.proposer
}

const indexOf = (set: BorValidatorSet, address: Hex) => set.validators.findIndex((v) => v.address === address)

/**
 * Applies validator changes (power 0 removes; a new address joins with priority −(T + T/8), T the
 * updated total) and re-centres the priorities — bor's UpdateWithChangeSet, quirks included: the
 * updated total starts from the set's cached total, and a change's power is compared with the
 * set's own entry as it is now.
 */
export function updateWithChangeSet(set: BorValidatorSet, changes: readonly BorValidator[], allowDeletes = true): void {
  if (changes.length === 0) return
  const sorted = changes.map(copyValidator).sort(byAddress)
  const updates: BorValidator[] = []
  const removals: BorValidator[] = []
  for (const [i, change] of sorted.entries()) {
    if (i > 0 && sorted[i - 1]!.address === change.address) {
      throw new BorValidatorSetError(`duplicate entry ${change.address} in the validator changes`)
    }
    if (change.power < 0n) throw new BorValidatorSetError(`voting power can't be negative: ${change.address}`)
    if (change.power > MAX_TOTAL_VOTING_POWER)
      throw new BorValidatorSetError(`voting power too high: ${change.address}`)
    if (change.power === 0n) removals.push(change)
    else updates.push(change)
  }
  if (!allowDeletes && removals.length > 0)
    throw new BorValidatorSetError('cannot process validators with voting power 0')
  for (const r of removals) {
    if (indexOf(set, r.address) < 0) throw new BorValidatorSetError(`failed to find validator ${r.address} to remove`)
  }
  let updatedTotal = totalVotingPower(set)
  let added = 0
  for (const u of updates) {
    const at = indexOf(set, u.address)
    if (at < 0) {
      updatedTotal += u.power
      added++
    } else updatedTotal += u.power - set.validators[at]!.power
    if (updatedTotal > MAX_TOTAL_VOTING_POWER) {
      throw new BorValidatorSetError(`failed to add/update validator ${u.address}: total voting power too high`)
    }
  }
  if (added === 0 && set.validators.length === removals.length) {
    throw new BorValidatorSetError('applying the validator changes would result in empty set')
  }
  for (const u of updates) {
    const at = indexOf(set, u.address)
    u.priority = at < 0 ? -(updatedTotal + (updatedTotal >> 3n)) : set.validators[at]!.priority
  }
  // Updates replace their entries or join in address order; removals leave.
  const byAddr = new Map(set.validators.map((v) => [v.address, v]))
  for (const u of updates) byAddr.set(u.address, u)
  for (const r of removals) byAddr.delete(r.address)
  set.validators = [...byAddr.values()].sort(byAddress)
  set.total = 0n
  const total = totalVotingPower(set)
  rescalePriorities(set, PRIORITY_WINDOW_SIZE_FACTOR * total)
  shiftByAveragePriority(set)
}

/** A set from validators (bor's NewValidatorSet): joined, then the proposer moved on once. */
export function newValidatorSet(validators: readonly BorValidator[]): BorValidatorSet {
  const set: BorValidatorSet = { validators: [], proposer: undefined, total: 0n }
  updateWithChangeSet(set, validators, false)
  if (validators.length > 0) incrementProposerPriority(set, 1)
  return set
}

/** The 40-byte records of a sprint-end header's validator bytes: address, then power (20 bytes, big-endian). */
export function parseValidatorBytes(bytes: Uint8Array): BorValidator[] {
  if (bytes.length % 40 !== 0) throw new BorValidatorSetError('invalid validators bytes')
  const out: BorValidator[] = []
  for (let i = 0; i < bytes.length; i += 40) {
    out.push({
      address: bytesToHex(bytes.subarray(i, i + 20)).toLowerCase() as Hex,
      power: BigInt.asIntN(64, bytesToBigInt(bytes.subarray(i + 20, i + 40))),
      priority: 0n,
      id: 0n,
    })
  }
  return out
}

/**
 * The set after a sprint-end header named `next` (bor's getUpdatedValidatorSet): on a copy, every
 * current validator takes its new power (0 when no longer named) in place, those newly named join,
 * and the change set is applied. A change set the set refuses leaves it as bor leaves it (bor logs
 * the error and goes on).
 */
export function updatedValidatorSet(current: BorValidatorSet, next: readonly BorValidator[]): BorValidatorSet {
  const set = copyValidatorSet(current)
  const named = new Map(next.map((v) => [v.address, v]))
  const changes: BorValidator[] = []
  for (const v of set.validators) {
    v.power = named.get(v.address)?.power ?? 0n
    changes.push(v)
  }
  for (const v of next) if (!changes.some((c) => c.address === v.address)) changes.push(v)
  try {
    updateWithChangeSet(set, changes)
  } catch (err) {
    if (!(err instanceof BorValidatorSetError)) throw err
  }
  return set
}

/**
 * How many turns after the proposer `signer` comes (0: in turn) — bor's GetSignerSuccessionNumber;
 * undefined when it is not in the set. A block's expected difficulty is the set's size minus it.
 */
export function signerSuccession(set: BorValidatorSet, signer: Hex): number | undefined {
  const proposer = proposerOf(set)
  const p = proposer ? indexOf(set, proposer.address) : -1
  const s = indexOf(set, signer)
  if (p < 0 || s < 0) return undefined
  return s >= p ? s - p : s + set.validators.length - p
}
