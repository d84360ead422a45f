import { type HeaderData, createBlockHeader } from '@ethereumjs/block'
import { RLP } from '@ethereumjs/rlp'
import type { TypedTransaction } from '@ethereumjs/tx'
import { bigIntToBytes, bytesToHex, concatBytes, privateToAddress, setLengthLeft } from '@ethereumjs/util'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { type BorSnapshot, applyBorHeaders } from '../../src/chain/bor/applyBorHeaders.js'
import { EXTRA_SEAL, EXTRA_VANITY, borSealHash } from '../../src/chain/bor/borSeal.js'
import { newValidatorSet, parseValidatorBytes, proposerOf } from '../../src/chain/bor/borValidatorSet.js'
import { BaseError } from '../../src/errors/base.js'
import type { Hex } from '../../src/types/hex.js'
import type { FixtureChain } from './createFixtureChain.js'

/** One validator of a Bor devnet: which of the plan's keys, with what voting power. */
export type BorDevnetValidator = { key: number; power: number }

/** What a Bor devnet's blocks are: who seals them, which sets the sprint ends name, what they carry. */
export type BorDevnetPlan = {
  /** The validators' private keys (32 bytes each). */
  keys: readonly Uint8Array[]
  /** How many blocks to build on the genesis. */
  blocks: number
  /**
   * The sets sprint-end headers name: each from its block on (the sprint end before it names it).
   * The genesis's extraData names the first set.
   */
  validators?: readonly { from: number; set: readonly BorDevnetValidator[] }[]
  /** Blocks sealed out of turn: block number → how many places after the in-turn proposer its signer is. */
  outOfTurn?: Readonly<Record<number, number>>
  /** Transactions to include, by block number. */
  transactions?: Readonly<Record<number, readonly TypedTransaction[]>>
  /** Seconds between blocks (default: the genesis's bor period, else 2). */
  period?: number
  /**
   * Sprint-start blocks whose RPC answers list a state-sync transaction and receipt, as bor lists
   * them (the devnet has no Heimdall: the syncs carry no events and change no state).
   */
  stateSyncs?: readonly number[]
}

export class BorDevnetError extends BaseError {
  override name = 'BorDevnetError'
}

/** A validator's 40-byte record: address, then its power as 20 big-endian bytes. */
function validatorBytes(keys: readonly Uint8Array[], set: readonly BorDevnetValidator[]): Uint8Array {
  const records = [...set]
    .map((v) => {
      const key = keys[v.key]
      if (!key) throw new BorDevnetError(`validator key ${v.key} is not among the plan's ${keys.length} keys`)
      return { address: privateToAddress(key), power: v.power }
    })
    .sort((a, b) => (bytesToHex(a.address) < bytesToHex(b.address) ? -1 : 1))
  return concatBytes(...records.map((r) => concatBytes(r.address, setLengthLeft(bigIntToBytes(BigInt(r.power)), 20))))
}

/** A Bor devnet genesis's extraData: 32 bytes of vanity, the first validator set, an empty seal. */
export function borGenesisExtraData(keys: readonly Uint8Array[], set: readonly BorDevnetValidator[]): Hex {
  return bytesToHex(concatBytes(new Uint8Array(EXTRA_VANITY), validatorBytes(keys, set), new Uint8Array(EXTRA_SEAL)))
}

/**
 * Builds a Bor devnet on a fixture chain, sealed as Bor seals it: each block signed by the in-turn
 * proposer of its parent's validator snapshot (or the signer the plan puts out of turn), its
 * difficulty the set's size minus that signer's distance from the proposer, every sprint's last
 * block naming the validator set in its extraData (raw before Napoli, RLP([validators,
 * txDependency]) from Napoli on), the base fee sealed from Jaipur on. Blocks are executed by the
 * fixture chain as any other.
 */
export async function produceBorChain(chain: FixtureChain, plan: BorDevnetPlan): Promise<void> {
  const bor = chain.rules.bor
  if (!bor) throw new BorDevnetError('the genesis has no bor section: not a Bor chain')
  const genesisPayload = chain.genesis.block.header.extraData.subarray(
    EXTRA_VANITY,
    chain.genesis.block.header.extraData.length - EXTRA_SEAL,
  )
  const head = chain.head()
  if (head !== chain.genesis) throw new BorDevnetError('a Bor devnet is built on the genesis alone')
  let snapshot: BorSnapshot = {
    number: 0n,
    hash: chain.genesis.hash,
    validatorSet: newValidatorSet(parseValidatorBytes(genesisPayload)),
  }
  if (snapshot.validatorSet.validators.length === 0)
    throw new BorDevnetError("the genesis's extraData names no validators (vanity, 40-byte records, seal)")
  const byAddress = new Map(plan.keys.map((key) => [bytesToHex(privateToAddress(key)), key]))
  const setFrom = (number: number): Uint8Array => {
    const entry = [...(plan.validators ?? [])].filter((v) => v.from <= number).sort((a, b) => b.from - a.from)[0]
    return entry ? validatorBytes(plan.keys, entry.set) : genesisPayload
  }
  const period = BigInt(plan.period ?? bor.spec.bor.period['0'] ?? 2)
  for (const n of plan.stateSyncs ?? []) {
    if (BigInt(n) % bor.sprintSize(BigInt(n)) !== 0n)
      throw new BorDevnetError(`state sync at block ${n}: bor commits state only at a sprint's first block`)
    chain.borStateSyncs.add(BigInt(n))
  }

  for (let number = 1; number <= plan.blocks; number++) {
    const n = BigInt(number)
    const { validators } = snapshot.validatorSet
    const proposer = proposerOf(snapshot.validatorSet)!
    const p = validators.findIndex((v) => v.address === proposer.address)
    const offset = plan.outOfTurn?.[number] ?? 0
    const signer = validators[(p + offset) % validators.length]!
    const key = byAddress.get(signer.address)
    if (!key) throw new BorDevnetError(`block ${number}: signer ${signer.address} has no key in the plan`)
    const sprintEnd = (n + 1n) % bor.sprintSize(n) === 0n
    const named = sprintEnd ? setFrom(number + 1) : new Uint8Array(0)
    const payload = bor.isNapoli(n) ? RLP.encode([named, []]) : named
    const parent = chain.head().block.header
    const template: HeaderData = {
      timestamp: parent.timestamp + period,
      difficulty: BigInt(validators.length - offset),
      // Execution never reads extraData; the payload goes in with the seal (ethereumjs, building the
      // draft under its clique rules, takes only vanity and seal on a non-epoch block).
      extraData: new Uint8Array(EXTRA_VANITY + EXTRA_SEAL),
    }
    // Transaction fees go to the signer, which ethereumjs recovers from the seal (a proof-of-authority
    // Common): the executed draft is sealed by the same key (without the payload its clique rules refuse).
    const mined = await chain.mineBlock(template, [...(plan.transactions?.[number] ?? [])], (header, common, draft) => {
      const body = draft ? new Uint8Array(0) : payload
      const unsealed = createBlockHeader(
        { ...header, extraData: concatBytes(new Uint8Array(EXTRA_VANITY), body, new Uint8Array(EXTRA_SEAL)) },
        { common, skipConsensusFormatValidation: true },
      )
      const signature = secp256k1.sign(borSealHash(unsealed, bor.isJaipur(n)), key, {
        prehash: false,
        format: 'recovered',
      })
      // r ‖ s ‖ v, v in {0, 1}.
      const seal = concatBytes(signature.subarray(1), signature.subarray(0, 1))
      return { ...header, extraData: concatBytes(new Uint8Array(EXTRA_VANITY), body, seal) }
    })
    snapshot = applyBorHeaders(
      snapshot,
      [{ hash: mined.hash, number: n, header: mined.block.header, common: mined.block.common }],
      bor,
    )
  }
}
