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

/**
 * A pool transaction in the reference daemon's RPCTransaction: block fields null; no gasPrice for
 * a dynamic-fee (type 2, 3, 4) one — the reference has none to give without a block.
 */
export function formatPoolTransaction(p: PoolTransaction): Record<string, unknown> {
  const out = formatTransaction(p.tx, undefined)
  delete out.blockTimestamp
  if (p.tx.type >= 2) delete out.gasPrice
  return out
}

/** One sender's transactions keyed by nonce in decimal (the reference's strconv.FormatUint). */
export const byNonce = (txs: readonly PoolTransaction[]): Record<string, unknown> =>
  Object.fromEntries(txs.map((tx) => [tx.nonce.toString(), formatPoolTransaction(tx)]))

/** Sub-pool → sender (EIP-55 checksummed, as the reference's Address.Hex()) → nonce → transaction. */
export function poolContent(classified: Classified): Record<SubPool, Record<string, Record<string, unknown>>> {
  const out = {} as Record<SubPool, Record<string, Record<string, unknown>>>
  for (const pool of SUB_POOLS) {
    const senders = [...classified[pool].entries()]
      .map(([sender, txs]) => [toChecksumAddress(sender), byNonce(txs)] as const)
      .sort(([a], [b]) => (a < b ? -1 : 1))
    out[pool] = Object.fromEntries(senders)
  }
  return out
}
