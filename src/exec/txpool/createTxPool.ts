import type { Hex } from '../../types/hex.js'
import { TxPoolError } from '../../errors/txpool.js'
import type { PoolTransaction } from './poolTransaction.js'

/** The pool's limits (`--txpool.*`), as the reference daemon's defaults. */
export type TxPoolLimits = {
  /** Most transactions in the pending sub-pool (`--txpool.globalslots`). */
  pendingSlots: number
  /** Most in the baseFee sub-pool (`--txpool.globalbasefeeslots`). */
  baseFeeSlots: number
  /** Most in the queued sub-pool (`--txpool.globalqueue`). */
  queuedSlots: number
  /** Most transactions one sender may have in the pool (`--txpool.accountslots`). */
  accountSlots: number
  /** Replacement: the tip and the fee cap must grow by this many percent (blob transactions: `blobPriceBump`). */
  priceBump: number
  blobPriceBump: number
}

export const DEFAULT_TXPOOL_LIMITS: TxPoolLimits = {
  pendingSlots: 10_000,
  baseFeeSlots: 30_000,
  queuedSlots: 30_000,
  accountSlots: 16,
  priceBump: 10,
  blobPriceBump: 100,
}

export type SubPool = 'pending' | 'baseFee' | 'queued'

/** What the head says about the block the pool's transactions would go in. */
export type PoolEnvironment = {
  /** The next block's base fee (0 before London). */
  baseFee: bigint
  /** The next block's blob base fee (0 before Cancun). */
  blobBaseFee: bigint
  /** The head's gas limit. */
  gasLimit: bigint
  /** Each sender's verified nonce and balance at the head (a sender missing here is left as it was). */
  accounts: ReadonlyMap<Hex, { nonce: bigint; balance: bigint }>
}

/** The sub-pools: sender → nonce → transaction, each sender's transactions in nonce order. */
export type Classified = Record<SubPool, Map<Hex, PoolTransaction[]>>

export type TxPool = {
  readonly limits: TxPoolLimits
  /**
   * Adds a checked transaction. The same hash again: "already known". The same sender and nonce:
   * a replacement, which must pay `priceBump` % more tip and fee cap (blob: `blobPriceBump` %, and
   * the blob fee cap too), else "replacement transaction underpriced". A remote transaction that
   * finds the pool full (all sub-pools' limits together) displaces the cheapest remote one if it
   * pays more, else "txpool is full". Returns the transaction replaced.
   */
  add(tx: PoolTransaction): PoolTransaction | undefined
  get(hash: string): PoolTransaction | undefined
  /** Every sender with transactions in the pool. */
  senders(): Hex[]
  /** One sender's transactions, by nonce. */
  of(sender: Hex): PoolTransaction[]
  /** Whether a pooled set-code transaction carries an authorization signed by `address` (EIP-7702). */
  hasAuthority(address: Hex): boolean
  /** Calls `listener` with every transaction the pool takes in (a replacement too); returns the unsubscribe. */
  onAdd(listener: (tx: PoolTransaction) => void): () => void
  /** Grows with every change to the pool's transactions: what was computed from the pool at one version holds until it changes. */
  version(): number
  remove(hash: string): boolean
  size(): number
  /**
   * Sorts the pool on verified state at the head (the reference daemon's promote): per sender,
   * transactions below its nonce were mined and leave; from its nonce on, those with no gap,
   * enough balance for their cumulative cost and gas under the block's limit are `pending` when
   * the lowest fee cap so far reaches the next base fee (and a blob's fee cap the blob base fee),
   * `baseFee` otherwise; the rest are `queued`. Then each sub-pool's limit, the lowest-paying
   * remote transactions evicted first.
   */
  classify(env: PoolEnvironment): Classified
}

const bumped = (old: bigint, percent: number) => old + (old * BigInt(percent)) / 100n

export function createTxPool(limits: TxPoolLimits = DEFAULT_TXPOOL_LIMITS): TxPool {
  const byHash = new Map<Hex, PoolTransaction>()
  const bySender = new Map<Hex, Map<bigint, PoolTransaction>>()
  /** authority → how many pooled transactions carry its authorization. */
  const authorities = new Map<Hex, number>()
  let changes = 0
  const listeners = new Set<(tx: PoolTransaction) => void>()
  const count = (tx: PoolTransaction, by: 1 | -1) => {
    changes++
    for (const a of tx.authorities) {
      const n = (authorities.get(a) ?? 0) + by
      if (n > 0) authorities.set(a, n)
      else authorities.delete(a)
    }
  }

  function remove(hash: string): boolean {
    const tx = byHash.get(hash.toLowerCase() as Hex)
    if (!tx) return false
    byHash.delete(tx.hash)
    count(tx, -1)
    const nonces = bySender.get(tx.sender)
    nonces?.delete(tx.nonce)
    if (nonces?.size === 0) bySender.delete(tx.sender)
    return true
  }

  /** The remote transaction that pays least (fee cap), the newest among equals, its sender's last nonce. */
  function cheapestRemote(): PoolTransaction | undefined {
    let worst: PoolTransaction | undefined
    for (const nonces of bySender.values()) {
      let last: PoolTransaction | undefined
      for (const tx of nonces.values()) if (!tx.local && (!last || tx.nonce > last.nonce)) last = tx
      if (
        last &&
        (!worst || last.feeCap < worst.feeCap || (last.feeCap === worst.feeCap && last.addedAt > worst.addedAt))
      )
        worst = last
    }
    return worst
  }

  const of = (sender: Hex) => [...(bySender.get(sender)?.values() ?? [])].sort((a, b) => (a.nonce < b.nonce ? -1 : 1))

  return {
    limits,
    add(tx) {
      if (byHash.has(tx.hash)) throw new TxPoolError('already known')
      const nonces = bySender.get(tx.sender) ?? new Map<bigint, PoolTransaction>()
      const old = nonces.get(tx.nonce)
      if (old) {
        const bump = old.blobGas > 0n || tx.blobGas > 0n ? limits.blobPriceBump : limits.priceBump
        const enough =
          tx.tip >= bumped(old.tip, bump) &&
          tx.feeCap >= bumped(old.feeCap, bump) &&
          (old.blobGas === 0n || tx.blobFeeCap >= bumped(old.blobFeeCap, bump))
        if (!enough) throw new TxPoolError('replacement transaction underpriced')
        byHash.delete(old.hash)
        count(old, -1)
      } else if (nonces.size >= limits.accountSlots && !tx.local) {
        throw new TxPoolError(`txpool is full: ${tx.sender} has ${nonces.size} transactions (--txpool.accountslots)`)
      } else if (!tx.local && byHash.size >= limits.pendingSlots + limits.baseFeeSlots + limits.queuedSlots) {
        // Full between heads (a feed keeps announcing): the cheapest remote transaction makes room
        // for a better-paying one, or the new one is refused — memory stays bounded.
        const cheapest = cheapestRemote()
        if (!cheapest || tx.feeCap <= cheapest.feeCap) throw new TxPoolError('txpool is full')
        remove(cheapest.hash)
      }
      nonces.set(tx.nonce, tx)
      bySender.set(tx.sender, nonces)
      byHash.set(tx.hash, tx)
      count(tx, 1)
      for (const listener of listeners) {
        try {
          listener(tx)
        } catch {
          // A listener's failure is not the pool's.
        }
      }
      return old
    },
    get: (hash) => byHash.get(hash.toLowerCase() as Hex),
    senders: () => [...bySender.keys()],
    of,
    hasAuthority: (address) => authorities.has(address.toLowerCase() as Hex),
    version: () => changes,
    onAdd(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    remove,
    size: () => byHash.size,
    classify(env) {
      const out: Classified = { pending: new Map(), baseFee: new Map(), queued: new Map() }
      const place = (pool: SubPool, tx: PoolTransaction) => {
        const list = out[pool].get(tx.sender) ?? []
        list.push(tx)
        out[pool].set(tx.sender, list)
      }
      for (const sender of [...bySender.keys()]) {
        const account = env.accounts.get(sender)
        const txs = of(sender)
        if (!account) {
          for (const tx of txs) place('queued', tx)
          continue
        }
        let expected = account.nonce
        let cumulative = 0n
        let minFeeCap: bigint | undefined
        let gapped = false
        for (const tx of txs) {
          if (tx.nonce < account.nonce) {
            remove(tx.hash) // mined (or replaced by a mined one): it leaves the pool
            continue
          }
          cumulative += tx.maxCost
          minFeeCap = minFeeCap === undefined || tx.feeCap < minFeeCap ? tx.feeCap : minFeeCap
          const noGap = !gapped && tx.nonce === expected
          if (noGap) expected++
          else gapped = true
          const executable = noGap && account.balance >= cumulative && tx.gas < env.gasLimit
          if (!executable) place('queued', tx)
          else if (minFeeCap >= env.baseFee && (tx.blobGas === 0n || tx.blobFeeCap >= env.blobBaseFee))
            place('pending', tx)
          else place('baseFee', tx)
        }
      }
      evict(out, 'pending', limits.pendingSlots)
      evict(out, 'baseFee', limits.baseFeeSlots)
      evict(out, 'queued', limits.queuedSlots)
      return out
    },
  }

  /**
   * Over its limit, a sub-pool loses its lowest-paying remote transactions (fee cap, then the newest),
   * each sender's from its highest nonce down, so no gap is made below a transaction that stays.
   */
  function evict(out: Classified, pool: SubPool, limit: number) {
    let count = 0
    for (const list of out[pool].values()) count += list.length
    while (count > limit) {
      let worst: PoolTransaction | undefined
      for (const list of out[pool].values()) {
        const last = [...list].reverse().find((tx) => !tx.local)
        if (!last) continue
        if (!worst || last.feeCap < worst.feeCap || (last.feeCap === worst.feeCap && last.addedAt > worst.addedAt))
          worst = last
      }
      if (!worst) return // only local transactions left: they stay
      const list = out[pool].get(worst.sender)!
      list.splice(list.indexOf(worst), 1)
      if (list.length === 0) out[pool].delete(worst.sender)
      remove(worst.hash)
      count--
    }
  }
}
