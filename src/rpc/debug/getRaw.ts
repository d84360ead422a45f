import { createBlockFromRPC, createBlockHeaderFromRPC } from '@ethereumjs/block'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { createTxFromRPC } from '@ethereumjs/tx'
import { bigIntToBytes, bytesToHex, equalsBytes, hexToBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { BlockNotFoundError, HeaderVerificationError } from '../../errors/state.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import { parseHash } from '../parsers.js'
import { ParamError, parseParams, required } from '../params.js'
import { cacheKeys } from '../../utils/cacheKeys.js'

const TAGS = ['latest', 'earliest', 'pending', 'safe', 'finalized']

/** geth's rpc.BlockNumberOrHash: a tag, a 0x-prefixed hex number, a hash or an EIP-1898 object. */
export function parseBlockNumberOrHashStrict(raw: unknown): BlockSelector {
  if (typeof raw === 'string' && !raw.startsWith('0x') && !TAGS.includes(raw)) throw new ParamError('hex string without 0x prefix')
  return parseBlockParameter(raw)
}

const where = (selector: BlockSelector) =>
  selector.kind === 'hash' ? selector.hash : selector.kind === 'number' ? `${selector.number}` : selector.tag

async function header(engine: Engine, selector: BlockSelector, what: 'header' | 'block'): Promise<VerifiedHeader> {
  try {
    return await engine.headers.resolve(selector)
  } catch (err) {
    if (err instanceof BlockNotFoundError) throw new ServerRpcError(`${what} #${where(selector)} not found`)
    throw err
  }
}

/** debug_getRawHeader(block): the RLP of a header edgetrace hashed itself. */
export async function getRawHeader(engine: Engine, params: unknown): Promise<string> {
  const [selector] = parseParams(params, [required(parseBlockNumberOrHashStrict)])
  return bytesToHex((await header(engine, selector, 'header')).header.serialize())
}

/**
 * debug_getRawBlock(block): the block's RLP (header, transactions, uncles, withdrawals), built from
 * the upstream's block and checked against the verified header: transactions root, uncles hash and
 * withdrawals root must match.
 */
export async function getRawBlock(engine: Engine, params: unknown): Promise<string> {
  const [selector] = parseParams(params, [required(parseBlockNumberOrHashStrict)])
  const verified = await header(engine, selector, 'block')
  const json = await engine.upstream.request<Record<string, unknown> | null>('eth_getBlockByHash', [verified.hash, true])
  if (!json) throw new ServerRpcError(`block #${where(selector)} not found`)
  const uncleCount = (json.uncles as unknown[] | undefined)?.length ?? 0
  const uncles = await Promise.all(
    Array.from({ length: uncleCount }, (_, i) =>
      engine.upstream.request<Record<string, unknown>>('eth_getUncleByBlockHashAndIndex', [verified.hash, `0x${i.toString(16)}`]),
    ),
  )
  const block = createBlockFromRPC(json as never, uncles.map((u) => createBlockHeaderFromRPC(u as never, { common: verified.common, skipConsensusFormatValidation: true })) as never, {
    common: verified.common,
    skipConsensusFormatValidation: true,
  })
  const bad = (what: string) => new HeaderVerificationError(`block ${verified.number} ${verified.hash}: the upstream's ${what} do not match the header`, { facts: { block: verified } })
  if (!equalsBytes(block.hash(), verified.header.hash())) throw bad('header fields')
  if (!(await block.transactionsTrieIsValid())) throw bad('transactions')
  if (!block.uncleHashIsValid()) throw bad('uncles')
  if (block.withdrawals !== undefined && !(await block.withdrawalsTrieIsValid())) throw bad('withdrawals')
  return bytesToHex(block.serialize())
}

/** A receipt as JSON-RPC gives it: what its encoding needs (pre-Byzantium ones have `root`, not `status`). */
type ReceiptJson = {
  type?: `0x${string}` | undefined
  status?: `0x${string}` | undefined
  root?: `0x${string}` | null | undefined
  cumulativeGasUsed: `0x${string}`
  logsBloom: `0x${string}`
  logs: { address: `0x${string}`; topics: `0x${string}`[]; data: `0x${string}` }[]
}

/** One receipt, EIP-2718-encoded: type ‖ RLP([status or post-state root, cumulative gas, bloom, logs]). */
export function encodeReceipt(r: ReceiptJson): Uint8Array {
  const logs = r.logs.map((l) => [hexToBytes(l.address), l.topics.map((t) => hexToBytes(t)), hexToBytes(l.data)])
  const outcome = r.root !== undefined && r.root !== null ? hexToBytes(r.root) : BigInt(r.status!) === 0n ? new Uint8Array(0) : Uint8Array.of(1)
  const body = RLP.encode([outcome, bigIntToBytes(BigInt(r.cumulativeGasUsed)), hexToBytes(r.logsBloom), logs])
  const type = Number(r.type ?? 0)
  return type === 0 ? body : Uint8Array.of(type, ...body)
}

/**
 * debug_getRawReceipts(block): the block's receipts, EIP-2718-encoded, from the upstream's receipts
 * encoded here and checked against the verified header's receiptsRoot.
 */
export async function getRawReceipts(engine: Engine, params: unknown): Promise<string[]> {
  const [selector] = parseParams(params, [required(parseBlockNumberOrHashStrict)])
  const verified = await header(engine, selector, 'block')
  // Verified receipts are kept by block hash (also in the persistent cache, where there is one).
  const key = cacheKeys.rawReceipts(verified.hash)
  if (engine.cache.restore) await engine.cache.restore([key])
  const kept = engine.cache.get<Uint8Array[]>(key)
  if (kept) return kept.map((b) => bytesToHex(b))
  let receipts = await engine.upstream.request<ReceiptJson[] | null>('eth_getBlockReceipts', [verified.hash]).catch(() => null)
  if (!receipts) {
    const json = await engine.upstream.request<{ transactions: string[] } | null>('eth_getBlockByHash', [verified.hash, false])
    if (!json) throw new ServerRpcError(`block #${where(selector)} not found`)
    receipts = await Promise.all(json.transactions.map((h) => engine.upstream.request<ReceiptJson>('eth_getTransactionReceipt', [h])))
  }
  const encoded = receipts.map(encodeReceipt)
  const trie = new MerklePatriciaTrie()
  for (const [i, bytes] of encoded.entries()) await trie.put(RLP.encode(i), bytes)
  if (!equalsBytes(trie.root(), verified.header.receiptTrie)) {
    throw new HeaderVerificationError(
      `block ${verified.number} ${verified.hash}: the upstream's receipts hash to ${bytesToHex(trie.root())}, not to the header's receiptsRoot ${bytesToHex(verified.header.receiptTrie)}`,
      { facts: { block: verified, expectedRoot: bytesToHex(verified.header.receiptTrie), gotRoot: bytesToHex(trie.root()) } },
    )
  }
  engine.cache.set(key, encoded, encoded.reduce((n, b) => n + b.length + 32, 64))
  return encoded.map((b) => bytesToHex(b))
}

/**
 * debug_getRawTransaction(hash): the transaction's canonical encoding, from the upstream's
 * transaction re-encoded here; its keccak256 must be the hash asked for. Unknown: "0x".
 */
export async function getRawTransaction(engine: Engine, params: unknown): Promise<string> {
  const [hash] = parseParams(params, [required(parseHash)])
  const json = await engine.upstream.request<Record<string, unknown> | null>('eth_getTransactionByHash', [hash])
  if (!json) return '0x'
  // The fork rules of the transaction's block (of the head for a pending one) decide which types decode.
  const blockHash = json.blockHash as `0x${string}` | null | undefined
  const at = await engine.headers.resolve(blockHash ? { kind: 'hash', hash: blockHash, requireCanonical: false } : { kind: 'tag', tag: 'latest' })
  const tx = await createTxFromRPC(json as never, { common: at.common })
  const raw = tx.serialize()
  if (bytesToHex(keccak_256(raw)) !== hash) {
    throw new HeaderVerificationError(`transaction ${hash}: the upstream's fields encode to a transaction with hash ${bytesToHex(keccak_256(raw))}`, {
      facts: { block: blockHash ? at : undefined, expectedHash: hash, gotHash: bytesToHex(keccak_256(raw)) },
    })
  }
  return bytesToHex(raw)
}
