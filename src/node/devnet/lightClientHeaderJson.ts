import type { LightClientHeader, SyncCommittee } from '../../chain/beacon/lightClientContainers.js'

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`

/** A light-client header (Capella on) in the Beacon API's JSON. */
export function lightClientHeaderJson(h: LightClientHeader) {
  const e = h.execution
  return {
    beacon: {
      slot: String(h.beacon.slot),
      proposer_index: String(h.beacon.proposerIndex),
      parent_root: hex(h.beacon.parentRoot),
      state_root: hex(h.beacon.stateRoot),
      body_root: hex(h.beacon.bodyRoot),
    },
    execution: {
      parent_hash: hex(e.parentHash),
      fee_recipient: hex(e.feeRecipient),
      state_root: hex(e.stateRoot),
      receipts_root: hex(e.receiptsRoot),
      logs_bloom: hex(e.logsBloom),
      prev_randao: hex(e.prevRandao),
      block_number: String(e.blockNumber),
      gas_limit: String(e.gasLimit),
      gas_used: String(e.gasUsed),
      timestamp: String(e.timestamp),
      extra_data: hex(e.extraData),
      base_fee_per_gas: String(e.baseFeePerGas),
      block_hash: hex(e.blockHash),
      transactions_root: hex(e.transactionsRoot),
      withdrawals_root: hex(e.withdrawalsRoot),
      blob_gas_used: String(e.blobGasUsed),
      excess_blob_gas: String(e.excessBlobGas),
    },
    execution_branch: h.executionBranch.map(hex),
  }
}

/** A sync committee in the Beacon API's JSON. */
export const syncCommitteeJson = (c: SyncCommittee) => ({
  pubkeys: c.pubkeys.map(hex),
  aggregate_pubkey: hex(c.aggregatePubkey),
})
