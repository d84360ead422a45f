import type { BlockHeader } from '@ethereumjs/block'
import { bytesToHex } from '@ethereumjs/util'
import { quantity } from '../../utils/hex.js'

const hex = (b: Uint8Array) => bytesToHex(b)
const orNull = <value>(v: value | undefined, f: (v: value) => string) => (v === undefined ? null : f(v))

/**
 * A header as the reference daemon's erigon_getHeaderBy* write it (its types.Header JSON, fields in
 * declaration order): every optional field present, null before its fork, and the hash last.
 */
export function formatErigonHeader(header: BlockHeader): Record<string, unknown> {
  return {
    parentHash: hex(header.parentHash),
    sha3Uncles: hex(header.uncleHash),
    miner: header.coinbase.toString(),
    stateRoot: hex(header.stateRoot),
    transactionsRoot: hex(header.transactionsTrie),
    receiptsRoot: hex(header.receiptTrie),
    logsBloom: hex(header.logsBloom),
    difficulty: quantity(header.difficulty),
    number: quantity(header.number),
    gasLimit: quantity(header.gasLimit),
    gasUsed: quantity(header.gasUsed),
    timestamp: quantity(header.timestamp),
    extraData: hex(header.extraData),
    mixHash: hex(header.mixHash),
    nonce: hex(header.nonce),
    baseFeePerGas: orNull(header.baseFeePerGas, quantity),
    withdrawalsRoot: orNull(header.withdrawalsRoot, hex),
    blobGasUsed: orNull(header.blobGasUsed, quantity),
    excessBlobGas: orNull(header.excessBlobGas, quantity),
    parentBeaconBlockRoot: orNull(header.parentBeaconBlockRoot, hex),
    requestsHash: orNull(header.requestsHash, hex),
    hash: hex(header.hash()),
  }
}
