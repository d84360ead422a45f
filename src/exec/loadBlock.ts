import { type Block, createBlockFromRPC } from '@ethereumjs/block'
import { bytesToHex } from '@ethereumjs/util'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import { ReplayMismatchError } from '../errors/replay.js'
import { BlockNotFoundError, HeaderVerificationError } from '../errors/state.js'
import type { Engine } from './createEngine.js'
import { cacheKeys } from '../utils/cacheKeys.js'
import { withoutBlobSidecar } from './fetchVerifiedBlock.js'
import { splitBorStateSync } from '../chain/bor/borStateSync.js'
import type { Hex } from '../types/hex.js'

export type ReceiptSummary = { transactionHash: string; gasUsed: bigint; status: bigint | undefined }

/** A block ready to replay: header and parent verified, transactions checked against the header. */
export type LoadedBlock = {
  header: VerifiedHeader
  parent: VerifiedHeader
  block: Block
  /** The upstream's receipts, to check each replayed transaction against. */
  receipts: ReceiptSummary[]
  /** On a Bor chain, the hash of the state-sync transaction the upstream listed after the block's own. */
  stateSync?: Hex | undefined
}

type RpcTx = { hash: string; from: string }

/** The block's JSON with each transaction's blob sidecar left out (withoutBlobSidecar). */
const withoutSidecars = (json: Record<string, unknown>) =>
  Array.isArray(json.transactions)
    ? {
        ...json,
        transactions: json.transactions.map((t) => (typeof t === 'object' && t !== null ? withoutBlobSidecar(t) : t)),
      }
    : json

/**
 * What the persistent cache keeps of a block: the upstream's JSON (with transactions, without blob
 * sidecars) and receipt summaries (left out when a shared tier could not check them: see
 * checkRawBlockReceipts).
 */
type RawBlock = { json: Record<string, unknown>; receipts?: unknown[] }

function toReceiptSummary(r: unknown): ReceiptSummary {
  const receipt = r as { transactionHash: string; gasUsed: string; status?: string }
  return {
    transactionHash: receipt.transactionHash.toLowerCase(),
    gasUsed: BigInt(receipt.gasUsed),
    status: receipt.status !== undefined ? BigInt(receipt.status) : undefined,
  }
}

/** A block's JSON checked against its hash: its header verified, its transactions decoded and checked. */
type CheckedBlock = {
  header: VerifiedHeader
  block: Block
  /** The transactions' hashes, as the block lists them (lower case). */
  txHashes: string[]
  /** Whether a Bor upstream's state-sync entry is split off (on a Bor chain), and its hash when there was one. */
  split: { stateSync: Hex | undefined } | undefined
  /** The JSON as kept: the state-sync entry and blob sidecars left out. */
  json: Record<string, unknown>
}

/**
 * Checks a block's JSON (the upstream's, or as a persistent tier kept it): the header hashes to the
 * block hash, the transactions hash to the header's transactionsRoot, each transaction's hash and
 * recovered sender equal the JSON's. Throws what does not check out.
 */
async function checkBlock(engine: Engine, hash: string, fetched: Record<string, unknown>): Promise<CheckedBlock> {
  const header = engine.headers.offer({ ...fetched, transactions: [] }, hash)
  // A Bor upstream lists the block's state-sync transaction last: not part of the block, not replayed.
  const split =
    engine.rules.bor && Array.isArray(fetched.transactions)
      ? splitBorStateSync(fetched.transactions as RpcTx[], (t) => t?.hash, header.number, hash)
      : undefined
  const json = withoutSidecars(split ? { ...fetched, transactions: split.items } : fetched)
  const where = `block ${header.number} ${hash}`
  let block: Block
  try {
    block = createBlockFromRPC(json as never, [], {
      common: header.common,
      skipConsensusFormatValidation: true,
    })
  } catch (err) {
    throw new HeaderVerificationError(`${where}: its transactions cannot be decoded`, {
      cause: err,
      facts: { block: { number: header.number, hash } },
    })
  }
  if (!(await block.transactionsTrieIsValid())) {
    throw new ReplayMismatchError(`${where}: transactions do not hash to the header's transactionsRoot`)
  }
  const rpcTxs = json.transactions as RpcTx[]
  block.transactions.forEach((tx, i) => {
    const rpc = rpcTxs[i]!
    if (bytesToHex(tx.hash()) !== rpc.hash.toLowerCase()) {
      throw new ReplayMismatchError(
        `${where}: transaction ${i} hashes to ${bytesToHex(tx.hash())}, the upstream says ${rpc.hash}`,
      )
    }
    if (tx.getSenderAddress().toString() !== rpc.from.toLowerCase()) {
      throw new ReplayMismatchError(
        `${where}: transaction ${rpc.hash} is signed by ${tx.getSenderAddress()}, the upstream says ${rpc.from}`,
      )
    }
  })
  const txHashes = rpcTxs.map((t) => t.hash.toLowerCase())
  return { header, block, txHashes, split: split && { stateSync: split.stateSync }, json }
}

/** Receipt summaries, one per transaction of the block and in its order; throws when they are not. */
function summariesOf(checked: CheckedBlock, receipts: readonly unknown[]): ReceiptSummary[] {
  const { header, txHashes } = checked
  const own = checked.split
    ? splitBorStateSync(
        receipts,
        (r) => (r as { transactionHash?: string })?.transactionHash,
        header.number,
        header.hash,
      ).items
    : receipts
  const summaries = own.map(toReceiptSummary)
  if (summaries.length !== txHashes.length || summaries.some((r, i) => r.transactionHash !== txHashes[i])) {
    throw new ReplayMismatchError(
      `block ${header.number} ${header.hash}: the upstream's receipts do not match the block's transactions`,
    )
  }
  return summaries
}

/** The upstream's receipts of the block: `asked` (eth_getBlockReceipts' answer), else one eth_getTransactionReceipt per transaction. */
async function upstreamReceipts(engine: Engine, checked: CheckedBlock, asked: unknown[] | null): Promise<unknown[]> {
  if (Array.isArray(asked)) return asked
  return Promise.all(checked.txHashes.map((h) => engine.upstream.request('eth_getTransactionReceipt', [h])))
}

/**
 * The block as the persistent tier kept it (`cacheKeys.rawBlock`), checked as the upstream's answer
 * is. Undefined when none is kept, or when what is kept does not check out: the tier is then told
 * (a shared tier deletes the entry and counts it) and the upstream is asked as if nothing were kept.
 * Receipt summaries a shared tier could not check come without: the upstream is asked for them.
 */
async function fromKept(engine: Engine, hash: string): Promise<LoadedBlock | undefined> {
  const persistent = engine.persistent
  if (!persistent) return undefined
  const rawKey = cacheKeys.rawBlock(hash)
  const kept = (await persistent.load([rawKey])).get(rawKey)?.value as RawBlock | undefined
  if (!kept) return undefined
  let checked: CheckedBlock
  let receipts: ReceiptSummary[] | undefined
  try {
    checked = await checkBlock(engine, hash, kept.json)
    if (kept.receipts) receipts = summariesOf(checked, kept.receipts)
  } catch {
    persistent.reject(rawKey)
    return undefined
  }
  const receiptsP = receipts
    ? Promise.resolve(receipts)
    : engine.upstream
        .request<unknown[] | null>('eth_getBlockReceipts', [hash])
        .catch(() => null)
        .then(async (asked) => summariesOf(checked, await upstreamReceipts(engine, checked, asked)))
  const [parent, summaries] = await Promise.all([
    engine.headers.byHash(bytesToHex(checked.header.header.parentHash)),
    receiptsP,
  ])
  const { header, block, split } = checked
  return { header, parent, block, receipts: summaries, stateSync: split?.stateSync }
}

/**
 * Fetches a block with its transactions, its receipts and its parent's header in one round trip,
 * and checks them: the header hashes to the block hash, the transactions hash to the header's
 * transactionsRoot, each transaction's hash and recovered sender equal the upstream's. What a
 * persistent tier keeps of it is read first and checked the same way.
 */
export async function loadBlock(engine: Engine, blockHash: string, numberHint?: bigint): Promise<LoadedBlock> {
  const hash = blockHash.toLowerCase()
  const cached = engine.cache.get<LoadedBlock>(cacheKeys.block(hash))
  if (cached) return cached
  const loaded = (await fromKept(engine, hash)) ?? (await fromUpstream(engine, hash, numberHint))
  // A block hash names one block forever: keep it (its size is about its transactions' bytes).
  const bytes = loaded.block.transactions.reduce((n, tx) => n + tx.serialize().length + 160, 4096)
  engine.cache.set(cacheKeys.block(hash), loaded, bytes)
  return loaded
}

/** The block from the upstream (see loadBlock), kept in the persistent tier once it checks out. */
async function fromUpstream(engine: Engine, hash: string, numberHint: bigint | undefined): Promise<LoadedBlock> {
  const { upstream, headers } = engine
  const jsonP = upstream.request<Record<string, unknown> | null>('eth_getBlockByHash', [hash, true])
  const receiptsP = upstream.request<unknown[] | null>('eth_getBlockReceipts', [hash]).catch(() => null)
  const parentP =
    numberHint !== undefined && numberHint > 0n
      ? upstream.request('eth_getBlockByNumber', [`0x${(numberHint - 1n).toString(16)}`, false]).catch(() => null)
      : undefined
  const fetched = await jsonP
  if (fetched === null) throw new BlockNotFoundError(hash)
  const checked = await checkBlock(engine, hash, fetched)
  const { header, block, split, json } = checked

  let parent: VerifiedHeader
  const parentHash = bytesToHex(header.header.parentHash)
  const speculative = parentP ? await parentP : null
  try {
    parent = speculative ? headers.offer(speculative, parentHash) : await headers.byHash(parentHash)
  } catch {
    parent = await headers.byHash(parentHash)
  }

  // eth_getBlockReceipts is asked for in the first round trip; per-transaction receipts are the fallback.
  const receipts = summariesOf(checked, await upstreamReceipts(engine, checked, await receiptsP))
  if (engine.persistent) {
    const summaries = receipts.map((r) => ({
      transactionHash: r.transactionHash,
      gasUsed: `0x${r.gasUsed.toString(16)}`,
      ...(r.status !== undefined ? { status: `0x${r.status.toString(16)}` } : {}),
    }))
    engine.persistent.save(cacheKeys.rawBlock(hash), { json, receipts: summaries } satisfies RawBlock, 0)
  }
  return { header, parent, block, receipts, stateSync: split?.stateSync }
}
