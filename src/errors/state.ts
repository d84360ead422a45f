import { BaseError, BaseErrorWithData, type BaseErrorParameters } from './base.js'
import type { Hex } from '../types/hex.js'

export type StateLocation = {
  /** Block number (when known) and hash the state was read at. */
  block: { number?: bigint | undefined; hash: string }
  address?: string | undefined
  slot?: string | undefined
}

/** What a verification failure knows: where it read, and the roots or hashes that disagreed. */
export type VerificationFacts = {
  block?: StateLocation['block'] | undefined
  address?: string | undefined
  slot?: string | undefined
  /** The root the proof had to lead from (the header's stateRoot, the account's storageRoot). */
  expectedRoot?: string | undefined
  /** The root the upstream's proof is in fact rooted at, when it is rooted elsewhere. */
  gotRoot?: string | undefined
  /** The hash the header, code or body had to have. */
  expectedHash?: string | undefined
  /** The hash computed from what the upstream sent. */
  gotHash?: string | undefined
  /** A value (balance, slot value …) as verified state holds it, where the upstream's differs. */
  expectedValue?: string | undefined
  /** That value as the upstream sent it. */
  gotValue?: string | undefined
}

/** A verification failure's `data` on the wire: the facts, block number as a 0x quantity, unknown ones left out. */
export type VerificationData = {
  block?: { number?: Hex; hash: string }
  address?: string
  slot?: string
  expectedRoot?: string
  gotRoot?: string
  expectedHash?: string
  gotHash?: string
  expectedValue?: string
  gotValue?: string
}

function toData({ block, ...rest }: VerificationFacts): VerificationData {
  const data: VerificationData = {}
  if (block) {
    data.block =
      block.number !== undefined ? { number: `0x${block.number.toString(16)}`, hash: block.hash } : { hash: block.hash }
  }
  for (const key of [
    'address',
    'slot',
    'expectedRoot',
    'gotRoot',
    'expectedHash',
    'gotHash',
    'expectedValue',
    'gotValue',
  ] as const) {
    const value = rest[key]
    if (value !== undefined) data[key] = value
  }
  return data
}

function where({ block, address, slot }: StateLocation): string[] {
  const lines = [`block ${block.number !== undefined ? `${block.number} ` : ''}${block.hash}`]
  if (address) lines.push(`address ${address}`)
  if (slot) lines.push(`slot ${slot}`)
  return lines
}

/** keccak256(rlp('')): the root of an empty trie. */
const EMPTY_TRIE_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'

/**
 * The one line said when a proof at block 0 fails because the genesis header commits to an empty
 * state (the empty trie's root) while the upstream's proofs are rooted at a state that holds
 * accounts: anvil's genesis is such a one (its header's stateRoot is the empty trie's, its dev
 * accounts funded all the same), so nothing at block 0 can be proven — and block 0's state is where
 * block 1's transactions start, the first ones a fresh anvil mines.
 */
export const UNPROVABLE_GENESIS_MESSAGE =
  "state does not verify: block 1's parent state (a genesis like anvil's, whose header commits to an empty state) cannot be proven: mine one empty block first"

/** Whether a failed proof is that case: at block 0, from the empty trie's root, the upstream's proof rooted at another. */
function isUnprovableGenesis({ block, expectedRoot, gotRoot }: StateLocation & VerificationFacts): boolean {
  return (
    block.number === 0n &&
    expectedRoot?.toLowerCase() === EMPTY_TRIE_ROOT &&
    gotRoot !== undefined &&
    gotRoot.toLowerCase() !== EMPTY_TRIE_ROOT
  )
}

/** ` (block N)`, or the hash when the number is not known: the one-line message's place. */
const atBlock = ({ block }: StateLocation) =>
  ` (block ${block.number !== undefined ? block.number.toString() : block.hash})`

/**
 * An account or storage proof from the upstream does not verify against the block. Never a result.
 * Its message is one line — what failed and the block (or, at an unprovable genesis, that and what to
 * do) — and its data holds address, slot and the roots; `message` (logs) adds them as lines too.
 */
export class ProofVerificationError extends BaseErrorWithData<VerificationData> {
  override name = 'ProofVerificationError'
  constructor(what: string, facts: StateLocation & VerificationFacts, args: BaseErrorParameters = {}) {
    const genesis = isUnprovableGenesis(facts)
    super(genesis ? UNPROVABLE_GENESIS_MESSAGE : `state does not verify: ${what}${atBlock(facts)}`, toData(facts), {
      ...args,
      metaMessages: [...(genesis ? [what] : []), ...where(facts)],
    })
  }
}

/** A proof's first node does not hash to the root it had to be rooted at. */
export class ProofRootMismatchError extends BaseError {
  override name = 'ProofRootMismatchError'
  constructor(
    readonly gotRoot: string,
    readonly expectedRoot: string,
  ) {
    super(`the proof is rooted at ${gotRoot}, not at the expected root ${expectedRoot}`)
  }
}

/** An enumerated range from the upstream (storage or accounts) disagrees with verified state. Never a result. */
export class RangeVerificationError extends BaseErrorWithData<VerificationData> {
  override name = 'RangeVerificationError'
  constructor(message: string, args: BaseErrorParameters & { facts?: VerificationFacts } = {}) {
    super(`state does not verify: ${message}`, args.facts && toData(args.facts), args)
  }
}

/** Code returned by the upstream does not hash to the account's codeHash. */
export class CodeHashMismatchError extends BaseErrorWithData<VerificationData> {
  override name = 'CodeHashMismatchError'
  constructor(location: StateLocation, expected: string, actual: string) {
    super(
      `state does not verify: code does not match the account codeHash${atBlock(location)}`,
      toData({ ...location, expectedHash: expected, gotHash: actual }),
      {
        metaMessages: [...where(location), `codeHash ${expected}`, `keccak256(code) ${actual}`],
      },
    )
  }
}

/** A header from the upstream does not hash to the block hash it claims (or was asked for). */
export class HeaderVerificationError extends BaseErrorWithData<VerificationData> {
  override name = 'HeaderVerificationError'
  constructor(what: string, args: BaseErrorParameters & { facts?: VerificationFacts } = {}) {
    super(`header does not verify: ${what}`, args.facts && toData(args.facts), args)
  }
}

/** The block asked for does not exist at the upstream. */
export class BlockNotFoundError extends BaseError {
  override name = 'BlockNotFoundError'
  constructor(block: string) {
    super(`block ${block} not found`)
  }
}

/**
 * A block asked by number or tag does not link by parent hashes to the trusted checkpoint
 * (`--checkpoint`), or the checkpoint itself cannot be had. Never a result.
 */
export class CheckpointError extends BaseError {
  override name = 'CheckpointError'
}
