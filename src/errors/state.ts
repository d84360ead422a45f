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
}

function toData({ block, ...rest }: VerificationFacts): VerificationData {
  const data: VerificationData = {}
  if (block) {
    data.block =
      block.number !== undefined ? { number: `0x${block.number.toString(16)}`, hash: block.hash } : { hash: block.hash }
  }
  for (const key of ['address', 'slot', 'expectedRoot', 'gotRoot', 'expectedHash', 'gotHash'] as const) {
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
 * Why a proof at a genesis that claims an empty state fails: anvil (and other devnets) start from a
 * genesis header whose stateRoot is the empty trie's while the node holds the funded accounts, so
 * nothing at block 0 can be proven. Said so, with where verified state starts.
 */
function genesisHint({ block, expectedRoot }: StateLocation & VerificationFacts): string[] {
  if (block.number !== 0n || expectedRoot?.toLowerCase() !== EMPTY_TRIE_ROOT) return []
  return [
    "block 0 is a genesis whose header commits to an empty state while the node holds accounts (anvil's genesis is such a one): state at block 0 cannot be proven. State verifies from block 1 on: calls at block 1 or later, traces of transactions in block 2 or later",
  ]
}

/** An account or storage proof from the upstream does not verify against the block. Never a result. */
export class ProofVerificationError extends BaseErrorWithData<VerificationData> {
  override name = 'ProofVerificationError'
  constructor(what: string, facts: StateLocation & VerificationFacts, args: BaseErrorParameters = {}) {
    super(`state does not verify: ${what}`, toData(facts), {
      ...args,
      metaMessages: [...where(facts), ...genesisHint(facts)],
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
      'state does not verify: code does not match the account codeHash',
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
