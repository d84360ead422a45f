import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToHex, ecrecover, publicToAddress } from '@ethereumjs/util'
import { keccak256 } from '../../utils/keccak256.js'
import { BaseError } from '../../errors/base.js'
import type { Hex } from '../../types/hex.js'

/** The header fields a Bor seal covers (ethereumjs' BlockHeader has them under these names). */
export type BorSealedHeader = {
  parentHash: Uint8Array
  uncleHash: Uint8Array
  coinbase: { bytes: Uint8Array }
  stateRoot: Uint8Array
  transactionsTrie: Uint8Array
  receiptTrie: Uint8Array
  logsBloom: Uint8Array
  difficulty: bigint
  number: bigint
  gasLimit: bigint
  gasUsed: bigint
  timestamp: bigint
  extraData: Uint8Array
  mixHash: Uint8Array
  nonce: Uint8Array
  baseFeePerGas?: bigint | undefined
}

/** The 32 bytes of vanity every Bor extraData starts with, and the 65-byte seal it ends with. */
export const EXTRA_VANITY = 32
export const EXTRA_SEAL = 65

/** A header whose extraData cannot hold a seal (Bor's error words). */
export class BorExtraDataError extends BaseError {
  override name = 'BorExtraDataError'
}

function checkExtra(extra: Uint8Array): void {
  if (extra.length < EXTRA_VANITY) throw new BorExtraDataError('extra-data 32 byte vanity prefix missing')
  if (extra.length < EXTRA_VANITY + EXTRA_SEAL)
    throw new BorExtraDataError('extra-data 65 byte signature suffix missing')
}

/**
 * Bor's SealHash: keccak256 of the header's RLP with the seal cut off extraData, and no field after
 * the nonce but the base fee — and that only from Jaipur on (before it, a header's base fee, if it
 * had one, was not sealed).
 */
export function borSealHash(header: BorSealedHeader, jaipur: boolean): Uint8Array {
  checkExtra(header.extraData)
  const fields: Uint8Array[] = [
    header.parentHash,
    header.uncleHash,
    header.coinbase.bytes,
    header.stateRoot,
    header.transactionsTrie,
    header.receiptTrie,
    header.logsBloom,
    bigIntToUnpaddedBytes(header.difficulty),
    bigIntToUnpaddedBytes(header.number),
    bigIntToUnpaddedBytes(header.gasLimit),
    bigIntToUnpaddedBytes(header.gasUsed),
    bigIntToUnpaddedBytes(header.timestamp),
    header.extraData.subarray(0, header.extraData.length - EXTRA_SEAL),
    header.mixHash,
    header.nonce,
  ]
  if (jaipur && header.baseFeePerGas !== undefined) fields.push(bigIntToUnpaddedBytes(header.baseFeePerGas))
  return keccak256(RLP.encode(fields))
}

/** The block's author: the address whose key made the seal (r ‖ s ‖ v, v ∈ {0, 1}) over the seal hash. */
export function recoverBorAuthor(header: BorSealedHeader, jaipur: boolean): Hex {
  const hash = borSealHash(header, jaipur)
  const seal = header.extraData.subarray(header.extraData.length - EXTRA_SEAL)
  const v = seal[64]!
  if (v > 1) throw new BorExtraDataError(`invalid seal recovery id ${v}`)
  try {
    const publicKey = ecrecover(hash, BigInt(v + 27), seal.subarray(0, 32), seal.subarray(32, 64))
    return bytesToHex(publicToAddress(publicKey)) as Hex
  } catch (err) {
    throw new BorExtraDataError('invalid seal signature', { cause: err })
  }
}

/**
 * The validator bytes a sprint-end header carries between its vanity and its seal: the bytes
 * themselves before Napoli (Bor's Cancun); from Napoli on, the first field of
 * RLP([validatorBytes, txDependency]). Undefined where Bor reads none (too short, or not decodable).
 */
export function borValidatorBytes(extraData: Uint8Array, napoli: boolean): Uint8Array | undefined {
  if (extraData.length < EXTRA_VANITY + EXTRA_SEAL) return napoli ? undefined : new Uint8Array(0)
  const payload = extraData.subarray(EXTRA_VANITY, extraData.length - EXTRA_SEAL)
  if (!napoli) return payload
  try {
    const decoded = RLP.decode(payload)
    if (!Array.isArray(decoded) || !(decoded[0] instanceof Uint8Array)) return undefined
    return decoded[0]
  } catch {
    return undefined
  }
}
