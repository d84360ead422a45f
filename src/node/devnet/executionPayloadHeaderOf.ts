import type { ExecutionPayloadHeader } from '../../chain/beacon/lightClientContainers.js'

/**
 * An execution block as the Beacon API's payload header carries it, from a JSON-RPC block (fields a
 * block before Shanghai or Cancun lacks are zero, as the payload header of its fork would leave them).
 */
export function executionPayloadHeaderOf(block: Record<string, unknown>): ExecutionPayloadHeader {
  const text = (key: string) => (typeof block[key] === 'string' ? (block[key] as string) : undefined)
  const b = (key: string, length: number) => {
    const out = Uint8Array.from(Buffer.from((text(key) ?? '0x').slice(2), 'hex'))
    if (length >= 0 && out.length !== length) return new Uint8Array(length)
    return out
  }
  const n = (key: string) => BigInt(text(key) ?? 0)
  return {
    parentHash: b('parentHash', 32),
    feeRecipient: b('miner', 20),
    stateRoot: b('stateRoot', 32),
    receiptsRoot: b('receiptsRoot', 32),
    logsBloom: b('logsBloom', 256),
    prevRandao: b('mixHash', 32),
    blockNumber: n('number'),
    gasLimit: n('gasLimit'),
    gasUsed: n('gasUsed'),
    timestamp: n('timestamp'),
    extraData: b('extraData', -1),
    baseFeePerGas: n('baseFeePerGas'),
    blockHash: b('hash', 32),
    transactionsRoot: b('transactionsRoot', 32),
    withdrawalsRoot: b('withdrawalsRoot', 32),
    blobGasUsed: n('blobGasUsed'),
    excessBlobGas: n('excessBlobGas'),
  }
}
