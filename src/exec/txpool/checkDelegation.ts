import { TxPoolError } from '../../errors/txpool.js'
import type { Hex } from '../../types/hex.js'
import type { TxPool } from './createTxPool.js'
import type { PoolTransaction } from './poolTransaction.js'

/**
 * geth's EIP-7702 limits on the pool (legacypool validateAuth): an account that is delegated (has
 * code at the head) or has an authorization waiting in the pool may have one executable transaction
 * in flight — its next nonce when it has none ("gapped-nonce tx from delegated accounts"), a
 * replacement when it has ("in-flight transaction limit reached for delegated accounts") — and a
 * set-code transaction may not carry the authorization of an account with more than one transaction
 * in the pool ("authority already reserved"). `sender` is the sender's account proven at the head.
 */
export function checkDelegation(pool: TxPool, tx: PoolTransaction, sender: { nonce: bigint; hasCode: boolean }): void {
  if (sender.hasCode || pool.hasAuthority(tx.sender)) {
    // The sender's executable transactions: contiguous nonces from its account's.
    const executable: bigint[] = []
    for (const pooled of pool.of(tx.sender)) {
      if (pooled.nonce < sender.nonce) continue
      if (pooled.nonce !== sender.nonce + BigInt(executable.length)) break
      executable.push(pooled.nonce)
    }
    if (executable.length === 0) {
      if (tx.nonce !== sender.nonce) throw new TxPoolError('gapped-nonce tx from delegated accounts')
    } else if (!executable.includes(tx.nonce)) {
      throw new TxPoolError('in-flight transaction limit reached for delegated accounts')
    }
  }
  for (const authority of tx.authorities)
    if (pool.of(authority.toLowerCase() as Hex).length > 1) throw new TxPoolError('authority already reserved')
}
