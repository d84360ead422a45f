// An independent model of Bor's validator set (Tendermint's proposer priority as bor's valset
// package runs it), written for the tests from the algorithm's description in
// ../shared/reference/erigon-rpc.md §4 and bor's valset/validator_set.go — not from edgetrace's code —
// so that a devnet's snapshots can be predicted from the keys and the schedule that built it.

export type ModelValidator = { address: string; power: bigint; accum: bigint }
export type ModelSet = { validators: ModelValidator[]; proposer: ModelValidator | undefined; cachedTotal: bigint }

const sortByAddress = (list: ModelValidator[]) => list.sort((a, b) => (a.address < b.address ? -1 : 1))
const sum = (list: readonly ModelValidator[]) => list.reduce((t, v) => t + v.power, 0n)
/** Go's big.Int Div: Euclidean, which for a positive divisor is the floor. */
const euclid = (a: bigint, b: bigint) => (a >= 0n ? a / b : -((-a + b - 1n) / b))

function total(set: ModelSet): bigint {
  if (set.cachedTotal === 0n) set.cachedTotal = sum(set.validators)
  return set.cachedTotal
}

function rescale(set: ModelSet, window: bigint) {
  if (window <= 0n || set.validators.length === 0) return
  const accums = set.validators.map((v) => v.accum)
  const spread = accums.reduce((m, a) => (a > m ? a : m)) - accums.reduce((m, a) => (a < m ? a : m))
  if (spread <= window) return
  const ratio = (spread + window - 1n) / window
  // Go's int64 division truncates toward zero, as BigInt's does.
  for (const v of set.validators) v.accum = v.accum / ratio
}

function centre(set: ModelSet) {
  const avg = euclid(
    set.validators.reduce((t, v) => t + v.accum, 0n),
    BigInt(set.validators.length),
  )
  for (const v of set.validators) v.accum -= avg
}

/** Moves the proposer on `times` times. */
export function increment(set: ModelSet, times = 1) {
  const t = total(set)
  rescale(set, 2n * t)
  centre(set)
  for (let i = 0; i < times; i++) {
    for (const v of set.validators) v.accum += v.power
    let best = set.validators[0]!
    for (const v of set.validators) {
      if (v.accum > best.accum || (v.accum === best.accum && v.address < best.address)) best = v
    }
    best.accum -= t
    set.proposer = best
  }
}

/**
 * Tendermint's UpdateWithChangeSet as bor calls it: zero power removes, a known address takes the
 * change's power and keeps its priority, a new one starts at −1.125 × the total after the changes
 * (computed, as Go does, from the set's cached total plus the changes' power differences against
 * the entries they replace), then the priorities are rescaled to 2 × the new total and centred.
 */
function applyChanges(set: ModelSet, changes: readonly ModelValidator[], allowDeletes: boolean) {
  const sorted = sortByAddress([...changes])
  let after = total(set)
  for (const c of sorted) {
    const existing = set.validators.find((v) => v.address === c.address)
    if (c.power === 0n) continue
    after += c.power - (existing?.power ?? 0n)
  }
  const joined: ModelValidator[] = []
  for (const c of sorted) {
    if (c.power === 0n) continue
    const existing = set.validators.find((v) => v.address === c.address)
    joined.push({ address: c.address, power: c.power, accum: existing ? existing.accum : -(after + (after >> 3n)) })
  }
  const removed = new Set(sorted.filter((c) => c.power === 0n).map((c) => c.address))
  if (!allowDeletes && removed.size > 0) throw new Error('model: deletes not allowed')
  const kept = set.validators.filter((v) => !removed.has(v.address) && !joined.some((j) => j.address === v.address))
  set.validators = sortByAddress([...kept, ...joined])
  set.cachedTotal = sum(set.validators)
  rescale(set, 2n * set.cachedTotal)
  centre(set)
}

/** A set from a list (bor's NewValidatorSet): joined, then the proposer moved on once. */
export function createSet(list: readonly { address: string; power: bigint }[]): ModelSet {
  const set: ModelSet = { validators: [], proposer: undefined, cachedTotal: 0n }
  applyChanges(
    set,
    list.map((v) => ({ ...v, accum: 0n })),
    false,
  )
  if (list.length > 0) increment(set, 1)
  return set
}

/**
 * The set after a sprint end that names `next` (bor's getUpdatedValidatorSet): bor first writes each
 * current validator's new power (0 when it is no longer named) into the copied set's own entries, so
 * the change set's differences against them are 0 — only the newly named count toward the total a
 * joining validator's priority starts from. Then the proposer moves on once.
 */
export function sprintEnd(current: ModelSet, next: readonly { address: string; power: bigint }[]): ModelSet {
  const set: ModelSet = {
    validators: current.validators.map((v) => ({ ...v })),
    proposer: current.proposer,
    cachedTotal: current.cachedTotal,
  }
  const changes: ModelValidator[] = []
  for (const v of set.validators) {
    v.power = next.find((n) => n.address === v.address)?.power ?? 0n
    changes.push({ ...v })
  }
  for (const n of next) if (!changes.some((c) => c.address === n.address)) changes.push({ ...n, accum: 0n })
  // Removed entries (power 0 now) leave; the rest keep their (already written) power.
  applyChanges(set, changes, true)
  increment(set, 1)
  return set
}

export function proposerOf(set: ModelSet): ModelValidator {
  if (set.proposer) return set.proposer
  let best = set.validators[0]!
  for (const v of set.validators)
    if (v.accum > best.accum || (v.accum === best.accum && v.address < best.address)) best = v
  return best
}
