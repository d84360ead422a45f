import { type TypedTransaction, createTxFromRLP } from '@ethereumjs/tx'
import { RLP } from '@ethereumjs/rlp'
import { bytesToBigInt, bytesToHex, equalsBytes, hexToBytes, toChecksumAddress } from '@ethereumjs/util'
import { sha256 } from '@noble/hashes/sha2.js'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import { TxPoolError } from '../../errors/txpool.js'
import type { Engine } from '../createEngine.js'
import { type PoolTransaction, toPoolTransaction } from './poolTransaction.js'

/** Decodes a raw signed transaction under the rules of the block after `head`; geth-worded errors. */
export function decodeRawTransaction(engine: Engine, head: VerifiedHeader, raw: string): TypedTransaction {
  const common = engine.rules.commonFor(head.number + 1n, head.header.timestamp + 1n)
  let tx: TypedTransaction
  const wrapped = hexToBytes(raw as `0x${string}`)
  const bytes = unwrapBlobSidecar(wrapped)
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
  return tx
}

/**
 * A blob transaction as eth_sendRawTransaction carries it (EIP-4844's network form:
 * 0x03 || rlp([body, blobs, commitments, proofs])): its body as a block holds it, once the sidecar
 * matches the body — as many blobs, commitments and proofs as versioned hashes, each hash the
 * commitment's (0x01 || sha256(commitment)[1:]). The blobs' KZG proofs are not checked here (the
 * upstream checks them before it takes the transaction). Anything else is returned as it is.
 */
function unwrapBlobSidecar(bytes: Uint8Array): Uint8Array {
  if (bytes[0] !== 3) return bytes
  let fields: unknown[]
  try {
    fields = RLP.decode(bytes.subarray(1)) as unknown[]
  } catch {
    return bytes
  }
  if (!Array.isArray(fields[0])) return bytes
  // EIP-7594 (Osaka) puts a wrapper version before the lists, and 128 cell proofs per blob.
  const versioned = fields[1] instanceof Uint8Array
  const [body, blobs, commitments, proofs] = (versioned ? [fields[0], ...fields.slice(2)] : fields) as [
    Uint8Array[],
    Uint8Array[],
    Uint8Array[],
    Uint8Array[],
  ]
  const hashes = (body[10] as unknown as Uint8Array[] | undefined) ?? []
  if (!Array.isArray(blobs) || !Array.isArray(commitments) || !Array.isArray(proofs))
    throw new TxPoolError('transaction could not be decoded: a blob sidecar must list blobs, commitments and proofs')
  const proofsPerBlob = versioned ? 128 : 1
  if (
    blobs.length !== hashes.length ||
    commitments.length !== hashes.length ||
    proofs.length !== hashes.length * proofsPerBlob
  )
    throw new TxPoolError(
      `invalid blob sidecar: ${hashes.length} versioned hashes, ${blobs.length} blobs, ${commitments.length} commitments, ${proofs.length} proofs`,
    )
  commitments.forEach((commitment, i) => {
    const hash = sha256(commitment)
    hash[0] = 1
    if (!equalsBytes(hash, hashes[i]!))
      throw new TxPoolError(
        `invalid blob sidecar: commitment ${i} does not hash to versioned hash ${bytesToHex(hashes[i]!)}`,
      )
  })
  return Uint8Array.from([3, ...RLP.encode(body as never)])
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
 * caps, EIP-7702's authorization list, nonce not below the sender's, and funds for the most it can
 * cost. The messages are geth's. Returns the transaction read for the pool.
 */
export async function checkTransaction(
  engine: Engine,
  head: VerifiedHeader,
  tx: TypedTransaction,
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
  if (tx.type === 3 && pooled.blobGas === 0n) throw new TxPoolError('blobless blob transaction')
  const account = await engine.source.getAccount(head, pooled.sender)
  const nonce = account?.nonce ?? 0n
  if (tx.nonce < nonce)
    throw new TxPoolError(`nonce too low: address ${checksum(pooled.sender)}, tx: ${tx.nonce} state: ${nonce}`)
  const balance = account?.balance ?? 0n
  if (balance < pooled.maxCost)
    throw new TxPoolError(
      `insufficient funds for gas * price + value: address ${checksum(pooled.sender)} have ${balance} want ${pooled.maxCost}`,
    )
  return pooled
}

const checksum = (address: string) => toChecksumAddress(address)
