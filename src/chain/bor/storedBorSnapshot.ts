import type { Hex } from '../../types/hex.js'
import type { BorSnapshot } from './applyBorHeaders.js'
import type { BorValidator } from './borValidatorSet.js'

/** A validator snapshot as the persistent tier keeps it (structured-clone values). */
export type StoredBorSnapshot = {
  number: bigint
  hash: string
  validators: { address: string; power: bigint; priority: bigint; id: bigint }[]
  /** The proposer's address (bor shares the proposer with the set's entry of the same address, or a copy). */
  proposer: { address: string; power: bigint; priority: bigint; id: bigint } | null
  total: bigint
}

const HASH = /^0x[0-9a-f]{64}$/
const ADDRESS = /^0x[0-9a-f]{40}$/

export function encodeBorSnapshot(snapshot: BorSnapshot): StoredBorSnapshot {
  const copy = (v: BorValidator) => ({ address: v.address, power: v.power, priority: v.priority, id: v.id })
  const { validators, proposer, total } = snapshot.validatorSet
  return {
    number: snapshot.number,
    hash: snapshot.hash,
    validators: validators.map(copy),
    proposer: proposer ? copy(proposer) : null,
    total,
  }
}

function validator(stored: unknown): BorValidator | undefined {
  const v = stored as StoredBorSnapshot['validators'][number] | null
  if (typeof v !== 'object' || v === null || typeof v.address !== 'string' || !ADDRESS.test(v.address)) return undefined
  if (typeof v.power !== 'bigint' || typeof v.priority !== 'bigint' || typeof v.id !== 'bigint') return undefined
  return { address: v.address as Hex, power: v.power, priority: v.priority, id: v.id }
}

/** A stored snapshot back, shape-checked; undefined when it does not check out. */
export function decodeBorSnapshot(stored: unknown): BorSnapshot | undefined {
  const s = stored as StoredBorSnapshot | null
  if (typeof s !== 'object' || s === null || typeof s.number !== 'bigint' || typeof s.total !== 'bigint')
    return undefined
  if (typeof s.hash !== 'string' || !HASH.test(s.hash) || !Array.isArray(s.validators)) return undefined
  const validators = s.validators.map(validator)
  if (validators.some((v) => v === undefined)) return undefined
  let proposer: BorValidator | undefined
  if (s.proposer !== null) {
    const p = validator(s.proposer)
    if (!p) return undefined
    // The set's own entry when it is the same validator as it was, as bor shares it.
    proposer = validators.find((v) => v!.address === p.address && v!.priority === p.priority) ?? p
  }
  return {
    number: s.number,
    hash: s.hash as Hex,
    validatorSet: { validators: validators as BorValidator[], proposer, total: s.total },
  }
}
