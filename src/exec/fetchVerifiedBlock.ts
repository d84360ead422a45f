import {
  type Block,
  type BlockHeader,
  createBlockFromRPC,
  createBlockHeaderFromRPC,
  genWithdrawalsTrieRoot,
} from '@ethereumjs/block'
import { RLP } from '@ethereumjs/rlp'
import { keccak256 } from '../utils/keccak256.js'
import { bytesToHex, equalsBytes } from '@ethereumjs/util'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import { BlockNotFoundError, HeaderVerificationError } from '../errors/state.js'
import { cacheKeys } from '../utils/cacheKeys.js'
import type { Engine } from './createEngine.js'
import { splitBorStateSync } from '../chain/bor/borStateSync.js'
import type { Hex } from '../types/hex.js'

/** The fields of a blob transaction's network wrapper (EIP-4844 sidecar) that some nodes (anvil) echo. */
const SIDECAR_FIELDS = ['blobs', 'commitments', 'kzgCommitments', 'proofs', 'kzgProofs', 'sidecar'] as const

/**
 * A transaction's JSON without its blob sidecar: the sidecar is not part of the transaction's
 * signed payload nor of the block (only the versioned hashes are), and decoding one would ask for
 * KZG operations edgetrace does not have.
 */
export function withoutBlobSidecar<json extends Record<string, unknown>>(tx: json): json {
  if (!SIDECAR_FIELDS.some((f) => f in tx)) return tx
  const copy: Record<string, unknown> = { ...tx }
  for (const f of SIDECAR_FIELDS) delete copy[f]
  return copy as json
}

/**
 * A block whose every part was checked against its verified header; on a Bor chain, the hash of the
 * state-sync transaction the upstream listed after the block's own (derived from the block, see borStateSync).
 */
export type VerifiedBlock = { header: VerifiedHeader; block: Block; stateSync?: Hex }

/**
 * The whole block a verified header names — transactions, uncles, withdrawals — from the upstream's
 * eth_getBlockByHash (full transactions) and eth_getUncleByBlockHashAndIndex, each checked against
 * the header: the block built from the upstream's JSON hashes to the block hash (so every header
 * field is the verified one), its transactions hash to transactionsRoot, its uncles to sha3Uncles,
 * its withdrawals to withdrawalsRoot. What does not match is an error naming the block and the part.
 * Nothing of the upstream's JSON is used beyond what these roots commit to. Kept by hash in memory.
 */
export async function fetchVerifiedBlock(engine: Engine, header: VerifiedHeader): Promise<VerifiedBlock> {
  const key = cacheKeys.verifiedBlock(header.hash)
  const kept = engine.cache.get<VerifiedBlock>(key)
  if (kept) return kept
  const verified = (await fromKept(engine, header)) ?? (await fetchAndVerify(engine, header, undefined))
  // A block never changes under its hash: kept, weighed by its encoded size.
  engine.cache.set(key, verified, 512 + verified.block.serialize().length)
  return verified
}

/**
 * The block from the JSON a replay kept in the persistent cache (loadBlock's raw block: the same
 * eth_getBlockByHash answer), checked like a fresh one — so a browser offline still answers for the
 * blocks it traced. Undefined without a persistent cache or an entry, or when the entry does not
 * check out: the tier is then told (a shared tier deletes it and counts it) and the upstream is
 * asked. Not on a Bor chain: the kept JSON has the state-sync entry left out, and whether the block
 * had one is the upstream's word alone (nothing a reader could check in a shared entry).
 */
async function fromKept(engine: Engine, header: VerifiedHeader): Promise<VerifiedBlock | undefined> {
  if (!engine.persistent || engine.rules.bor) return undefined
  const key = cacheKeys.rawBlock(header.hash)
  const kept = (await engine.persistent.load([key])).get(key)?.value as { json?: Record<string, unknown> } | undefined
  const json = kept?.json
  // Uncles are asked for one by one: a kept block with uncles is fetched whole, as before.
  if (!json || (Array.isArray(json.uncles) && json.uncles.length > 0)) return undefined
  try {
    return await fetchAndVerify(engine, header, json)
  } catch {
    engine.persistent.reject(key)
    return undefined
  }
}

/** The block from `kept` (a persistent tier's JSON, with no uncles), else from the upstream, checked against the header. */
async function fetchAndVerify(
  engine: Engine,
  header: VerifiedHeader,
  kept: Record<string, unknown> | undefined,
): Promise<VerifiedBlock> {
  const fetched =
    kept ?? (await engine.upstream.request<Record<string, unknown> | null>('eth_getBlockByHash', [header.hash, true]))
  if (fetched === null) throw new BlockNotFoundError(header.hash)
  // A Bor upstream lists the block's state-sync transaction last: no root commits to it; only its
  // derived hash is kept (and shown as bor shows it), nothing of its JSON.
  const split =
    engine.rules.bor && Array.isArray(fetched.transactions)
      ? splitBorStateSync(
          fetched.transactions as unknown[],
          (t) => (t as { hash?: string } | null)?.hash,
          header.number,
          header.hash,
        )
      : undefined
  const json = split ? { ...fetched, transactions: split.items } : fetched
  const block = { number: header.number, hash: header.hash }
  const where = `block ${header.number} ${header.hash}`
  const uncleCount = Array.isArray(json.uncles) ? json.uncles.length : 0
  const uncleJson = await Promise.all(
    Array.from({ length: uncleCount }, (_, i) =>
      engine.upstream.request<Record<string, unknown> | null>('eth_getUncleByBlockHashAndIndex', [
        header.hash,
        `0x${i.toString(16)}`,
      ]),
    ),
  )
  const bad = (what: string, expectedRoot: Uint8Array, gotRoot: Uint8Array) =>
    new HeaderVerificationError(
      `block ${header.number}: the upstream's ${what} hash to another root than the header's`,
      { facts: { block, expectedRoot: bytesToHex(expectedRoot), gotRoot: bytesToHex(gotRoot) } },
    )
  const undecodable = (err: unknown) =>
    new HeaderVerificationError(`${where}: the upstream's block cannot be decoded`, { cause: err, facts: { block } })
  let uncles: BlockHeader[]
  try {
    uncles = uncleJson.map((u) => {
      if (u === null) throw new Error('an uncle the block lists is not found')
      return createBlockHeaderFromRPC(u as never, { common: header.common, skipConsensusFormatValidation: true })
    })
  } catch (err) {
    throw undecodable(err)
  }
  // Uncles first: a block of a proof-of-stake fork cannot even be built with any (and has none).
  const uncleHash = keccak256(RLP.encode(uncles.map((u) => u.raw())))
  if (!equalsBytes(uncleHash, header.header.uncleHash)) throw bad('uncles', header.header.uncleHash, uncleHash)
  let built: Block
  try {
    const transactions = Array.isArray(json.transactions)
      ? json.transactions.map((t) => (typeof t === 'object' && t !== null ? withoutBlobSidecar(t) : t))
      : json.transactions
    built = createBlockFromRPC({ ...json, transactions } as never, uncles as never, {
      common: header.common,
      skipConsensusFormatValidation: true,
    })
  } catch (err) {
    throw undecodable(err)
  }
  if (!equalsBytes(built.hash(), header.header.hash())) throw bad('header fields', header.header.hash(), built.hash())
  if (!(await built.transactionsTrieIsValid()))
    throw bad('transactions', header.header.transactionsTrie, await built.genTxTrie())
  if (built.withdrawals !== undefined && !(await built.withdrawalsTrieIsValid()))
    throw bad('withdrawals', header.header.withdrawalsRoot!, await genWithdrawalsTrieRoot(built.withdrawals))
  return { header, block: built, ...(split?.stateSync ? { stateSync: split.stateSync } : {}) }
}
