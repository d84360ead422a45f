import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import type { TypedTransaction } from '@ethereumjs/tx'
import { bytesToHex, equalsBytes, hexToBytes } from '@ethereumjs/util'
import { sha256 } from '@noble/hashes/sha2.js'
import { CELLS_PER_EXT_BLOB, KzgBadArgsError } from '../../chain/kzgField.js'
import { verifyBlobKzgProof } from '../../chain/verifyBlobKzgProof.js'
import { verifyBlobCellProofs } from '../../chain/verifyCellKzgProofBatch.js'
import { TxPoolError } from '../../errors/txpool.js'
import { GAS_PER_BLOB } from '../../utils/gasPerBlob.js'
import { COOPERATIVE } from '../cooperative.js'

/** What a blob transaction carries beside its body on the network (EIP-4844; version 1: EIP-7594's cell proofs). */
export type BlobSidecar = {
  version: 0 | 1
  blobs: Uint8Array[]
  commitments: Uint8Array[]
  proofs: Uint8Array[]
}

/**
 * A raw transaction as eth_sendRawTransaction carries it: a blob transaction in its network form
 * (0x03 ‖ rlp([body, blobs, commitments, proofs]), or with EIP-7594's wrapper version after the
 * body) is split into the body a block holds and its sidecar. Anything else is returned as it is.
 */
export function splitBlobSidecar(bytes: Uint8Array): { body: Uint8Array; sidecar?: BlobSidecar } {
  if (bytes[0] !== 3) return { body: bytes }
  let fields: unknown[]
  try {
    fields = RLP.decode(bytes.subarray(1)) as unknown[]
  } catch {
    return { body: bytes }
  }
  if (!Array.isArray(fields[0])) return { body: bytes }
  const versioned = fields[1] instanceof Uint8Array
  const version = versioned ? (fields[1] as Uint8Array) : undefined
  if (version !== undefined && !(version.length === 1 && version[0] === 1))
    throw new TxPoolError(`transaction could not be decoded: unknown blob sidecar version ${bytesToHex(version)}`)
  const [blobs, commitments, proofs] = fields.slice(versioned ? 2 : 1)
  const isList = (v: unknown): v is Uint8Array[] => Array.isArray(v) && v.every((x) => x instanceof Uint8Array)
  if (!isList(blobs) || !isList(commitments) || !isList(proofs))
    throw new TxPoolError('transaction could not be decoded: a blob sidecar must list blobs, commitments and proofs')
  return {
    body: Uint8Array.from([3, ...RLP.encode(fields[0] as never)]),
    sidecar: { version: versioned ? 1 : 0, blobs, commitments, proofs },
  }
}

/**
 * geth's checks of a blob transaction's sidecar (core/txpool/validation.go validateBlobTx), in its
 * order and words: a blob fee cap of at least 1, at least one blob and no more than a block holds,
 * as many blobs and commitments as versioned hashes, each hash the commitment's
 * (0x01 ‖ sha256(commitment)[1:]), the sidecar version of the fork (1 from Osaka on), and the KZG
 * proofs — one per blob before Osaka, 128 cell proofs per blob from Osaka on. The proofs are checked
 * blob by blob, the event loop served between blobs.
 */
export async function checkBlobSidecar(tx: TypedTransaction, sidecar: BlobSidecar | undefined, common: Common) {
  const blobTx = tx as TypedTransaction & { maxFeePerBlobGas: bigint; blobVersionedHashes: string[] }
  if (!sidecar) throw new TxPoolError('missing sidecar in blob transaction')
  if (blobTx.maxFeePerBlobGas < 1n)
    throw new TxPoolError(
      `transaction gas price below minimum: blob fee cap ${blobTx.maxFeePerBlobGas}, minimum needed 1`,
    )
  const hashes = blobTx.blobVersionedHashes.map((h) => hexToBytes(h as `0x${string}`))
  if (hashes.length === 0) throw new TxPoolError('blobless blob transaction')
  const maxBlobs = Number(common.getBlobGasSchedule().maxBlobGasPerBlock / GAS_PER_BLOB)
  if (hashes.length > maxBlobs)
    throw new TxPoolError(`too many blobs in transaction: have ${hashes.length}, permitted ${maxBlobs}`)
  const { blobs, commitments, proofs } = sidecar
  if (blobs.length !== hashes.length)
    throw new TxPoolError(`invalid number of ${blobs.length} blobs compared to ${hashes.length} blob hashes`)
  if (commitments.length !== hashes.length)
    throw new TxPoolError(
      `invalid number of ${commitments.length} blob commitments compared to ${hashes.length} blob hashes`,
    )
  commitments.forEach((commitment, i) => {
    const hash = sha256(commitment)
    hash[0] = 1
    if (!equalsBytes(hash, hashes[i]!))
      throw new TxPoolError(
        `blob ${i}: computed hash ${bytesToHex(hash)} mismatches transaction one ${bytesToHex(hashes[i]!)}`,
      )
  })
  const osaka = common.gteHardfork('osaka')
  if (osaka && sidecar.version !== 1) throw new TxPoolError(`invalid sidecar version post-osaka: ${sidecar.version}`)
  if (!osaka && sidecar.version !== 0) throw new TxPoolError(`invalid sidecar version pre-osaka: ${sidecar.version}`)
  const perBlob = osaka ? CELLS_PER_EXT_BLOB : 1
  if (proofs.length !== hashes.length * perBlob)
    throw new TxPoolError(`invalid number of ${proofs.length} blob proofs expected ${hashes.length * perBlob}`)
  for (let i = 0; i < blobs.length; i++) {
    if (i > 0) await COOPERATIVE.yieldToEventLoop()
    let verified: boolean
    try {
      verified = osaka
        ? verifyBlobCellProofs([blobs[i]!], [commitments[i]!], proofs.slice(i * perBlob, (i + 1) * perBlob))
        : verifyBlobKzgProof(blobs[i]!, commitments[i]!, proofs[i]!)
    } catch (err) {
      if (!(err instanceof KzgBadArgsError)) throw err
      throw new TxPoolError(`KZG verification error: blob ${i}: ${err.message.replace(/^C_KZG_BADARGS: /, '')}`)
    }
    if (!verified)
      throw new TxPoolError(
        osaka
          ? `KZG verification error: blob ${i}: its cell proofs do not verify`
          : `KZG verification error: invalid blob proof: blob ${i}: the proof does not verify`,
      )
  }
}
