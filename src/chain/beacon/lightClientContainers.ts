import type { BeaconConfig, LightClientFork } from './beaconConfig.js'
import {
  SszReader,
  bytesRoot,
  isZero,
  merkleize,
  mixInLength,
  pack,
  uint64Chunk,
  uint256Chunk,
  unpackBits,
} from './ssz.js'

// The light-client containers of the consensus specs (altair/capella/deneb/electra light-client
// sync protocol), decoded from SSZ and hashed as the specs hash them.

export type BeaconBlockHeader = {
  slot: number
  proposerIndex: bigint
  parentRoot: Uint8Array
  stateRoot: Uint8Array
  bodyRoot: Uint8Array
}

/** An execution payload header (Capella's fields; Deneb on adds the two blob-gas fields). */
export type ExecutionPayloadHeader = {
  parentHash: Uint8Array
  feeRecipient: Uint8Array
  stateRoot: Uint8Array
  receiptsRoot: Uint8Array
  logsBloom: Uint8Array
  prevRandao: Uint8Array
  blockNumber: bigint
  gasLimit: bigint
  gasUsed: bigint
  timestamp: bigint
  extraData: Uint8Array
  baseFeePerGas: bigint
  blockHash: Uint8Array
  transactionsRoot: Uint8Array
  withdrawalsRoot: Uint8Array
  blobGasUsed: bigint
  excessBlobGas: bigint
}

export type LightClientHeader = {
  beacon: BeaconBlockHeader
  execution: ExecutionPayloadHeader
  executionBranch: Uint8Array[]
}

export type SyncCommittee = { pubkeys: Uint8Array[]; aggregatePubkey: Uint8Array }

export type SyncAggregate = { bits: boolean[]; signature: Uint8Array }

export type LightClientBootstrap = {
  header: LightClientHeader
  currentSyncCommittee: SyncCommittee
  currentSyncCommitteeBranch: Uint8Array[]
}

export type LightClientUpdate = {
  attestedHeader: LightClientHeader
  nextSyncCommittee: SyncCommittee
  nextSyncCommitteeBranch: Uint8Array[]
  finalizedHeader: LightClientHeader
  finalityBranch: Uint8Array[]
  syncAggregate: SyncAggregate
  signatureSlot: number
}

/** The depth of the execution branch (EXECUTION_PAYLOAD_GINDEX 25). */
export const EXECUTION_BRANCH_DEPTH = 4

/** Branch lengths of a fork's containers: Electra's state has one more level. */
export function branchDepths(fork: LightClientFork): { syncCommittee: number; finality: number } {
  return fork === 'electra' || fork === 'fulu' ? { syncCommittee: 6, finality: 7 } : { syncCommittee: 5, finality: 6 }
}

const hasBlobGas = (fork: LightClientFork) => fork !== 'capella'

export function decodeBeaconBlockHeader(r: SszReader): BeaconBlockHeader {
  return {
    slot: r.smallUint64(),
    proposerIndex: r.uint64(),
    parentRoot: r.take(32),
    stateRoot: r.take(32),
    bodyRoot: r.take(32),
  }
}

export function beaconBlockHeaderRoot(h: BeaconBlockHeader): Uint8Array {
  return merkleize([uint64Chunk(BigInt(h.slot)), uint64Chunk(h.proposerIndex), h.parentRoot, h.stateRoot, h.bodyRoot])
}

function decodeExecutionPayloadHeader(bytes: Uint8Array, fork: LightClientFork): ExecutionPayloadHeader {
  const r = new SszReader(bytes, 'ExecutionPayloadHeader')
  const head = {
    parentHash: r.take(32),
    feeRecipient: r.take(20),
    stateRoot: r.take(32),
    receiptsRoot: r.take(32),
    logsBloom: r.take(256),
    prevRandao: r.take(32),
    blockNumber: r.uint64(),
    gasLimit: r.uint64(),
    gasUsed: r.uint64(),
    timestamp: r.uint64(),
  }
  const extraDataOffset = r.offset()
  const tail = {
    baseFeePerGas: r.uint256(),
    blockHash: r.take(32),
    transactionsRoot: r.take(32),
    withdrawalsRoot: r.take(32),
    blobGasUsed: hasBlobGas(fork) ? r.uint64() : 0n,
    excessBlobGas: hasBlobGas(fork) ? r.uint64() : 0n,
  }
  const [extraData] = r.variableParts([extraDataOffset])
  if (extraData!.length > 32) throw new Error(`ssz: extra_data of ${extraData!.length} bytes (at most 32)`)
  return { ...head, extraData: extraData!, ...tail }
}

/** hash_tree_root of an execution payload header as the fork's container (Capella's without the blob fields). */
export function executionPayloadHeaderRoot(h: ExecutionPayloadHeader, fork: LightClientFork): Uint8Array {
  const fields = [
    h.parentHash,
    bytesRoot(h.feeRecipient),
    h.stateRoot,
    h.receiptsRoot,
    bytesRoot(h.logsBloom),
    h.prevRandao,
    uint64Chunk(h.blockNumber),
    uint64Chunk(h.gasLimit),
    uint64Chunk(h.gasUsed),
    uint64Chunk(h.timestamp),
    mixInLength(merkleize(pack(h.extraData), 1), h.extraData.length),
    uint256Chunk(h.baseFeePerGas),
    h.blockHash,
    h.transactionsRoot,
    h.withdrawalsRoot,
  ]
  if (hasBlobGas(fork)) fields.push(uint64Chunk(h.blobGasUsed), uint64Chunk(h.excessBlobGas))
  return merkleize(fields)
}

function decodeLightClientHeader(bytes: Uint8Array, fork: LightClientFork): LightClientHeader {
  const r = new SszReader(bytes, 'LightClientHeader')
  const beacon = decodeBeaconBlockHeader(r)
  const executionOffset = r.offset()
  const executionBranch = r.vector(EXECUTION_BRANCH_DEPTH, 32)
  const [execution] = r.variableParts([executionOffset])
  return { beacon, execution: decodeExecutionPayloadHeader(execution!, fork), executionBranch }
}

function decodeSyncCommittee(r: SszReader, size: number): SyncCommittee {
  return { pubkeys: r.vector(size, 48), aggregatePubkey: r.take(48) }
}

export function syncCommitteeRoot(c: SyncCommittee): Uint8Array {
  return merkleize([merkleize(c.pubkeys.map(bytesRoot)), bytesRoot(c.aggregatePubkey)])
}

/** Whether a sync committee is the container's default (all zero): "not known". */
export const isEmptySyncCommittee = (c: SyncCommittee) => isZero(c.aggregatePubkey) && c.pubkeys.every(isZero)

/** Whether a light-client header is the container's default (all zero, no extra data). */
export function isEmptyLightClientHeader(h: LightClientHeader): boolean {
  const b = h.beacon
  const e = h.execution
  return (
    b.slot === 0 &&
    b.proposerIndex === 0n &&
    [b.parentRoot, b.stateRoot, b.bodyRoot].every(isZero) &&
    h.executionBranch.every(isZero) &&
    [
      e.parentHash,
      e.feeRecipient,
      e.stateRoot,
      e.receiptsRoot,
      e.logsBloom,
      e.prevRandao,
      e.blockHash,
      e.transactionsRoot,
      e.withdrawalsRoot,
    ].every(isZero) &&
    e.extraData.length === 0 &&
    [e.blockNumber, e.gasLimit, e.gasUsed, e.timestamp, e.baseFeePerGas, e.blobGasUsed, e.excessBlobGas].every(
      (v) => v === 0n,
    )
  )
}

/** A LightClientBootstrap of `fork` from its SSZ bytes. */
export function decodeLightClientBootstrap(
  bytes: Uint8Array,
  fork: LightClientFork,
  config: BeaconConfig,
): LightClientBootstrap {
  const r = new SszReader(bytes, 'LightClientBootstrap')
  const headerOffset = r.offset()
  const currentSyncCommittee = decodeSyncCommittee(r, config.preset.syncCommitteeSize)
  const currentSyncCommitteeBranch = r.vector(branchDepths(fork).syncCommittee, 32)
  const [header] = r.variableParts([headerOffset])
  return { header: decodeLightClientHeader(header!, fork), currentSyncCommittee, currentSyncCommitteeBranch }
}

/** A LightClientUpdate of `fork` from its SSZ bytes (finality and optimistic updates are its subsets). */
export function decodeLightClientUpdate(
  bytes: Uint8Array,
  fork: LightClientFork,
  config: BeaconConfig,
): LightClientUpdate {
  const size = config.preset.syncCommitteeSize
  const depths = branchDepths(fork)
  const r = new SszReader(bytes, 'LightClientUpdate')
  const attestedOffset = r.offset()
  const nextSyncCommittee = decodeSyncCommittee(r, size)
  const nextSyncCommitteeBranch = r.vector(depths.syncCommittee, 32)
  const finalizedOffset = r.offset()
  const finalityBranch = r.vector(depths.finality, 32)
  const bitBytes = r.take(size / 8)
  const signature = r.take(96)
  const signatureSlot = r.smallUint64()
  const [attested, finalized] = r.variableParts([attestedOffset, finalizedOffset])
  const bits = unpackBits(bitBytes, size)
  return {
    attestedHeader: decodeLightClientHeader(attested!, fork),
    nextSyncCommittee,
    nextSyncCommitteeBranch,
    finalizedHeader: decodeLightClientHeader(finalized!, fork),
    finalityBranch,
    syncAggregate: { bits, signature },
    signatureSlot,
  }
}
