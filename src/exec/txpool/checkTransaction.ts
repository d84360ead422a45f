import { type TypedTransaction, createTxFromRLP } from '@ethereumjs/tx'
import { RLP } from '@ethereumjs/rlp'
import { bytesToBigInt, hexToBytes, toChecksumAddress } from '@ethereumjs/util'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import { TxPoolError } from '../../errors/txpool.js'
import type { Engine } from '../createEngine.js'
import { type BlobSidecar, checkBlobSidecar, splitBlobSidecar } from './checkBlobSidecar.js'
import { checkDelegation } from './checkDelegation.js'
import { type PoolTransaction, toPoolTransaction } from './poolTransaction.js'

/** A raw transaction decoded: the signed transaction, and a blob transaction's sidecar when it came with one. */
export type RawTransaction = { tx: TypedTransaction; sidecar?: BlobSidecar | undefined }

/** Decodes a raw signed transaction under the rules of the block after `head`; geth-worded errors. */
export function decodeRawTransaction(engine: Engine, head: VerifiedHeader, raw: string): RawTransaction {
  const common = engine.rules.commonFor(head.number + 1n, head.header.timestamp + 1n)
  let tx: TypedTransaction
  const { body: bytes, sidecar } = splitBlobSidecar(hexToBytes(raw as `0x${string}`))
  try {
    tx = createTxFromRLP(bytes, { common })
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0]!.replace(/ \(.*$/, '') : String(err)
    const have = rawChainId(bytes)
    if (have !== undefined && have !== engine.rules.chainId)
      throw new TxPoolError(`invalid chain id for signer: have ${have} want ${engine.rules.chainId}`)
    // ethereumjs refuses to build these at all; geth decodes them and then says:
    if (/maxFeePerGas cannot be less than maxPriorityFeePerGas/.test(reason))
      throw new TxPoolError('max priority fee per gas higher than max fee per gas')
    if (/type|not supported|not activated/i.test(reason) && !/rlp/i.test(reason))
      throw new TxPoolError(`transaction type not supported: ${reason}`)
    throw new TxPoolError(`transaction could not be decoded: ${reason}`)
  }
  if (!tx.isSigned()) throw new TxPoolError('invalid sender: the transaction is not signed')
  return { tx, sidecar }
}

/** The chain id a raw transaction names (a typed one's first field; a legacy one's from v), if it can be read. */
function rawChainId(bytes: Uint8Array): bigint | undefined {
  try {
    if (bytes[0] !== undefined && bytes[0] < 0x7f) {
      const fields = RLP.decode(bytes.subarray(1)) as Uint8Array[]
      return bytesToBigInt(fields[0]!)
    }
    const fields = RLP.decode(bytes) as Uint8Array[]
    const v = bytesToBigInt(fields[6]!)
    return v >= 35n ? (v - 35n) / 2n : undefined
  } catch {
    return undefined
  }
}

/**
 * geth's checks of a transaction before it enters the pool (core/txpool/validation.go), on state
 * proven at the head: replay protection and chain id, signature, gas limit and intrinsic gas, fee
 * caps, EIP-7702's authorization list, a blob transaction's sidecar and its KZG proofs
 * (checkBlobSidecar), nonce not below the sender's, funds for the most it can cost, and EIP-7702's
 * limits on delegated accounts and authorities (checkDelegation). The messages are geth's. Returns the transaction read for the pool.
 */
export async function checkTransaction(
  engine: Engine,
  head: VerifiedHeader,
  { tx, sidecar }: RawTransaction,
  local: boolean,
): Promise<PoolTransaction> {
  if (tx.type === 0 && !tx.supports(155))
    throw new TxPoolError('only replay-protected (EIP-155) transactions allowed over RPC')
  const chainId = engine.rules.chainId
  if (tx.common.chainId() !== chainId)
    throw new TxPoolError(`invalid chain id for signer: have ${tx.common.chainId()} want ${chainId}`)
  let pooled: PoolTransaction
  try {
    pooled = toPoolTransaction(tx, local)
  } catch {
    throw new TxPoolError('invalid sender')
  }
  if (tx.gasLimit > head.header.gasLimit) throw new TxPoolError('exceeds block gas limit')
  const intrinsic = tx.getIntrinsicGas()
  if (tx.gasLimit < intrinsic)
    throw new TxPoolError(`intrinsic gas too low: gas ${tx.gasLimit}, minimum needed ${intrinsic}`)
  if (pooled.tip > pooled.feeCap) throw new TxPoolError('max priority fee per gas higher than max fee per gas')
  if (pooled.feeCap === 0n && pooled.tip === 0n)
    throw new TxPoolError('transaction underpriced: tip needed 1, tip permitted 0')
  if (tx.type === 4) {
    const list = (tx as TypedTransaction & { authorizationList?: unknown[] }).authorizationList ?? []
    if (list.length === 0) throw new TxPoolError('EIP-7702 transaction with empty auth list')
    if (tx.to === undefined) throw new TxPoolError('EIP-7702 transaction cannot be used to create contract')
  }
  if (tx.type === 3) await checkBlobSidecar(tx, sidecar, tx.common)
  const account = await engine.source.getAccount(head, pooled.sender)
  const nonce = account?.nonce ?? 0n
  if (tx.nonce < nonce)
    throw new TxPoolError(`nonce too low: address ${checksum(pooled.sender)}, tx: ${tx.nonce} state: ${nonce}`)
  const balance = account?.balance ?? 0n
  if (balance < pooled.maxCost)
    throw new TxPoolError(
      `insufficient funds for gas * price + value: address ${checksum(pooled.sender)} have ${balance} want ${pooled.maxCost}`,
    )
  checkDelegation(engine.txpool, pooled, { nonce, hasCode: account?.isContract() ?? false })
  return pooled
}

const checksum = (address: string) => toChecksumAddress(address)
