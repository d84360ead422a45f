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

/** What the persistent cache keeps of a block: the upstream's JSON (with transactions) and receipt summaries. */
type RawBlock = { json: Record<string, unknown>; receipts: unknown[] }

function toReceiptSummary(r: unknown): ReceiptSummary {
  const receipt = r as { transactionHash: string; gasUsed: string; status?: string }
  return {
    transactionHash: receipt.transactionHash.toLowerCase(),
    gasUsed: BigInt(receipt.gasUsed),
    status: receipt.status !== undefined ? BigInt(receipt.status) : undefined,
  }
}

/**
 * Fetches a block with its transactions, its receipts and its parent's header in one round trip,
 * and checks them: the header hashes to the block hash, the transactions hash to the header's
 * transactionsRoot, each transaction's hash and recovered sender equal the upstream's.
 */
export async function loadBlock(engine: Engine, blockHash: string, numberHint?: bigint): Promise<LoadedBlock> {
  const hash = blockHash.toLowerCase()
  const cached = engine.cache.get<LoadedBlock>(cacheKeys.block(hash))
  if (cached) return cached
  const { upstream, headers } = engine
  // The persistent cache keeps the block's raw transactions and receipt summaries: checked again below.
  const rawKey = cacheKeys.rawBlock(hash)
  const kept = engine.persistent
    ? ((await engine.persistent.load([rawKey])).get(rawKey)?.value as RawBlock | undefined)
    : undefined
  const jsonP = kept
    ? Promise.resolve(kept.json)
    : upstream.request<Record<string, unknown> | null>('eth_getBlockByHash', [hash, true])
  const receiptsP = kept
    ? Promise.resolve(kept.receipts)
    : upstream.request<unknown[] | null>('eth_getBlockReceipts', [hash]).catch(() => null)
  const parentP =
    !kept && numberHint !== undefined && numberHint > 0n
      ? upstream.request('eth_getBlockByNumber', [`0x${(numberHint - 1n).toString(16)}`, false]).catch(() => null)
      : undefined
  const fetched = await jsonP
  if (fetched === null) throw new BlockNotFoundError(hash)
  const header = headers.offer({ ...fetched, transactions: [] }, hash)
  // A Bor upstream lists the block's state-sync transaction last: not part of the block, not replayed.
  const split =
    engine.rules.bor && Array.isArray(fetched.transactions)
      ? splitBorStateSync(fetched.transactions as RpcTx[], (t) => t?.hash, header.number, hash)
      : undefined
  const json = split ? { ...fetched, transactions: split.items } : fetched
  const where = `block ${header.number} ${hash}`
  let block: Block
  try {
    block = createBlockFromRPC(withoutSidecars(json) as never, [], {
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

  let parent: VerifiedHeader
  const parentHash = bytesToHex(header.header.parentHash)
  const speculative = parentP ? await parentP : null
  try {
    parent = speculative ? headers.offer(speculative, parentHash) : await headers.byHash(parentHash)
  } catch {
    parent = await headers.byHash(parentHash)
  }

  const receiptsRaw = await receiptsP
  const txHashes = rpcTxs.map((t) => t.hash.toLowerCase())
  // eth_getBlockReceipts is asked for in the first round trip; per-transaction receipts are the fallback.
  const receipts = (
    Array.isArray(receiptsRaw)
      ? split
        ? splitBorStateSync(
            receiptsRaw,
            (r) => (r as { transactionHash?: string })?.transactionHash,
            header.number,
            hash,
          ).items
        : receiptsRaw
      : await Promise.all(txHashes.map((h) => upstream.request('eth_getTransactionReceipt', [h])))
  ).map(toReceiptSummary)
  if (receipts.length !== txHashes.length || receipts.some((r, i) => r.transactionHash !== txHashes[i])) {
    throw new ReplayMismatchError(`${where}: the upstream's receipts do not match the block's transactions`)
  }
  const loaded: LoadedBlock = { header, parent, block, receipts, stateSync: split?.stateSync }
  if (!kept && engine.persistent) {
    const summaries = receipts.map((r) => ({
      transactionHash: r.transactionHash,
      gasUsed: `0x${r.gasUsed.toString(16)}`,
      ...(r.status !== undefined ? { status: `0x${r.status.toString(16)}` } : {}),
    }))
    engine.persistent.save(rawKey, { json, receipts: summaries } satisfies RawBlock, 0)
  }
  // A block hash names one block forever: keep it (its size is about its transactions' bytes).
  const bytes = block.transactions.reduce((n, tx) => n + tx.serialize().length + 160, 4096)
  engine.cache.set(cacheKeys.block(hash), loaded, bytes)
  return loaded
}
