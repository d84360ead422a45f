import { toChecksumAddress } from '@ethereumjs/util'
import type { Engine } from '../../exec/createEngine.js'
import type { Classified, SubPool } from '../../exec/txpool/createTxPool.js'
import { poolEnvironment } from '../../exec/txpool/poolEnvironment.js'
import type { PoolTransaction } from '../../exec/txpool/poolTransaction.js'
import { readUpstreamPool } from '../../exec/txpool/readUpstreamPool.js'
import { formatTransaction } from '../eth/formatTransaction.js'

/** The pool sorted into its sub-pools on state proven at the current head (the upstream's pool read in first). */
export async function classifiedPool(engine: Engine): Promise<Classified> {
  const head = await engine.headers.resolve({ kind: 'tag', tag: 'latest' })
  await readUpstreamPool(engine, head)
  return engine.txpool.classify(await poolEnvironment(engine, head, engine.txpool.senders()))
}

export const SUB_POOLS: readonly SubPool[] = ['pending', 'baseFee', 'queued']

/** The sub-pools as the reference's maps write them: keys sorted (baseFee, pending, queued). */
export const SUB_POOLS_SORTED: readonly SubPool[] = [...SUB_POOLS].sort(goOrder)

/** Go's encoding/json writes a map's keys sorted by their bytes: "10" before "9" (ASCII strings here). */
function goOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * The fields of the reference daemon's RPCTransaction in its struct's order (Erigon's
 * rpc/ethapi RPCTransaction), which encoding/json writes as declared.
 */
const RPC_TRANSACTION_FIELDS = [
  'blockHash',
  'blockNumber',
  'from',
  'gas',
  'gasPrice',
  'maxPriorityFeePerGas',
  'maxFeePerGas',
  'hash',
  'input',
  'nonce',
  'to',
  'transactionIndex',
  'value',
  'type',
  'accessList',
  'chainId',
  'maxFeePerBlobGas',
  'blobVersionedHashes',
  'authorizationList',
  'v',
  'yParity',
  'r',
  's',
] as const

/**
 * A pool transaction in the reference daemon's RPCTransaction, its fields in the struct's order:
 * block fields null; no gasPrice for a dynamic-fee (type 2, 3, 4) one — the reference has none to
 * give without a block.
 */
export function formatPoolTransaction(p: PoolTransaction): Record<string, unknown> {
  const formatted = formatTransaction(p.tx, undefined)
  if (p.tx.type >= 2) delete formatted.gasPrice
  const out: Record<string, unknown> = {}
  for (const field of RPC_TRANSACTION_FIELDS) if (field in formatted) out[field] = formatted[field]
  return out
}

/**
 * A Go map's JSON text: keys sorted by their bytes. Written as text because a JavaScript object
 * keeps integer-like keys ("9", "10") in numeric order whatever order they are put in.
 */
function goMapJson(entries: readonly (readonly [string, string])[]): string {
  const sorted = [...entries].sort(([a], [b]) => goOrder(a, b))
  return `{${sorted.map(([key, json]) => `${JSON.stringify(key)}:${json}`).join(',')}}`
}

/** One sender's transactions keyed by nonce in decimal (the reference's strconv.FormatUint), as JSON text. */
export const byNonceJson = (txs: readonly PoolTransaction[]): string =>
  goMapJson(txs.map((tx) => [tx.nonce.toString(), JSON.stringify(formatPoolTransaction(tx))]))

/**
 * Sub-pool → sender (EIP-55 checksummed, as the reference's Address.Hex()) → nonce → transaction, as
 * the reference writes it: every level's keys sorted by their bytes, so byte for byte the same text.
 */
export function poolContentJson(classified: Classified): string {
  return goMapJson(
    SUB_POOLS.map((pool) => [
      pool,
      goMapJson([...classified[pool].entries()].map(([sender, txs]) => [toChecksumAddress(sender), byNonceJson(txs)])),
    ]),
  )
}

/** One sender's `{baseFee, pending, queued}`, nonce → transaction, as the reference writes it. */
export function senderContentJson(classified: Classified, sender: string): string {
  return goMapJson(SUB_POOLS.map((pool) => [pool, byNonceJson(classified[pool].get(sender as `0x${string}`) ?? [])]))
}
