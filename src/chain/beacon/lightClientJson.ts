import { LightClientVerificationError } from '../../errors/consensus.js'
import type { BeaconConfig, LightClientFork } from './beaconConfig.js'
import {
  EXECUTION_BRANCH_DEPTH,
  type ExecutionPayloadHeader,
  type LightClientBootstrap,
  type LightClientHeader,
  type LightClientUpdate,
  type SyncCommittee,
  branchDepths,
} from './lightClientContainers.js'
import { unpackBits } from './ssz.js'

// The Beacon API's JSON of the light-client containers (`/eth/v1/beacon/light_client/*`: numbers as
// decimal strings, bytes as 0x hex, a bitvector as the hex of its bytes), read into the same
// containers the SSZ decoder gives, every length checked.

type Json = Record<string, unknown>

function shape(message: string): never {
  throw new LightClientVerificationError('shape', message)
}

function field(obj: unknown, key: string, where: string): unknown {
  if (typeof obj !== 'object' || obj === null || !(key in obj)) shape(`${where}.${key} is missing`)
  return (obj as Json)[key]
}

function hexOf(value: unknown, length: number | undefined, where: string): Uint8Array {
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) shape(`${where} is not 0x hex`)
  const out = Uint8Array.from((value.slice(2).match(/../g) ?? []).map((h) => Number.parseInt(h, 16)))
  if (length !== undefined && out.length !== length) shape(`${where} is ${out.length} bytes, not ${length}`)
  return out
}

function uintOf(value: unknown, where: string): bigint {
  if (typeof value !== 'string' || !/^\d{1,78}$/.test(value)) shape(`${where} is not a decimal string`)
  return BigInt(value)
}

function slotOf(value: unknown, where: string): number {
  const v = uintOf(value, where)
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) shape(`${where} is too large`)
  return Number(v)
}

function branchOf(value: unknown, depth: number, where: string): Uint8Array[] {
  if (!Array.isArray(value) || value.length !== depth) shape(`${where} must hold ${depth} roots`)
  return value.map((v, i) => hexOf(v, 32, `${where}[${i}]`))
}

function execution(json: unknown, fork: LightClientFork, where: string): ExecutionPayloadHeader {
  const f = (key: string) => field(json, key, where)
  const extraData = hexOf(f('extra_data'), undefined, `${where}.extra_data`)
  if (extraData.length > 32) shape(`${where}.extra_data is over 32 bytes`)
  return {
    parentHash: hexOf(f('parent_hash'), 32, `${where}.parent_hash`),
    feeRecipient: hexOf(f('fee_recipient'), 20, `${where}.fee_recipient`),
    stateRoot: hexOf(f('state_root'), 32, `${where}.state_root`),
    receiptsRoot: hexOf(f('receipts_root'), 32, `${where}.receipts_root`),
    logsBloom: hexOf(f('logs_bloom'), 256, `${where}.logs_bloom`),
    prevRandao: hexOf(f('prev_randao'), 32, `${where}.prev_randao`),
    blockNumber: uintOf(f('block_number'), `${where}.block_number`),
    gasLimit: uintOf(f('gas_limit'), `${where}.gas_limit`),
    gasUsed: uintOf(f('gas_used'), `${where}.gas_used`),
    timestamp: uintOf(f('timestamp'), `${where}.timestamp`),
    extraData,
    baseFeePerGas: uintOf(f('base_fee_per_gas'), `${where}.base_fee_per_gas`),
    blockHash: hexOf(f('block_hash'), 32, `${where}.block_hash`),
    transactionsRoot: hexOf(f('transactions_root'), 32, `${where}.transactions_root`),
    withdrawalsRoot: hexOf(f('withdrawals_root'), 32, `${where}.withdrawals_root`),
    blobGasUsed: fork === 'capella' ? 0n : uintOf(f('blob_gas_used'), `${where}.blob_gas_used`),
    excessBlobGas: fork === 'capella' ? 0n : uintOf(f('excess_blob_gas'), `${where}.excess_blob_gas`),
  }
}

export function lightClientHeaderFromJson(json: unknown, fork: LightClientFork, where = 'header'): LightClientHeader {
  const beacon = field(json, 'beacon', where)
  const b = (key: string) => field(beacon, key, `${where}.beacon`)
  return {
    beacon: {
      slot: slotOf(b('slot'), `${where}.beacon.slot`),
      proposerIndex: uintOf(b('proposer_index'), `${where}.beacon.proposer_index`),
      parentRoot: hexOf(b('parent_root'), 32, `${where}.beacon.parent_root`),
      stateRoot: hexOf(b('state_root'), 32, `${where}.beacon.state_root`),
      bodyRoot: hexOf(b('body_root'), 32, `${where}.beacon.body_root`),
    },
    execution: execution(field(json, 'execution', where), fork, `${where}.execution`),
    executionBranch: branchOf(
      field(json, 'execution_branch', where),
      EXECUTION_BRANCH_DEPTH,
      `${where}.execution_branch`,
    ),
  }
}

function syncCommittee(json: unknown, size: number, where: string): SyncCommittee {
  const pubkeys = field(json, 'pubkeys', where)
  if (!Array.isArray(pubkeys) || pubkeys.length !== size) shape(`${where}.pubkeys must hold ${size} keys`)
  return {
    pubkeys: pubkeys.map((k, i) => hexOf(k, 48, `${where}.pubkeys[${i}]`)),
    aggregatePubkey: hexOf(field(json, 'aggregate_pubkey', where), 48, `${where}.aggregate_pubkey`),
  }
}

/** The light-client fork a Beacon API answer's `version` names. */
export function lightClientForkOf(version: unknown): LightClientFork {
  if (version === 'capella' || version === 'deneb' || version === 'electra' || version === 'fulu') return version
  return shape(`version ${JSON.stringify(version)} is not a light-client fork edgetrace reads (capella … fulu)`)
}

export function lightClientBootstrapFromJson(
  json: unknown,
  fork: LightClientFork,
  config: BeaconConfig,
): LightClientBootstrap {
  return {
    header: lightClientHeaderFromJson(field(json, 'header', 'bootstrap'), fork, 'bootstrap.header'),
    currentSyncCommittee: syncCommittee(
      field(json, 'current_sync_committee', 'bootstrap'),
      config.preset.syncCommitteeSize,
      'bootstrap.current_sync_committee',
    ),
    currentSyncCommitteeBranch: branchOf(
      field(json, 'current_sync_committee_branch', 'bootstrap'),
      branchDepths(fork).syncCommittee,
      'bootstrap.current_sync_committee_branch',
    ),
  }
}

const emptyHeader = (): LightClientHeader => ({
  beacon: {
    slot: 0,
    proposerIndex: 0n,
    parentRoot: new Uint8Array(32),
    stateRoot: new Uint8Array(32),
    bodyRoot: new Uint8Array(32),
  },
  execution: {
    parentHash: new Uint8Array(32),
    feeRecipient: new Uint8Array(20),
    stateRoot: new Uint8Array(32),
    receiptsRoot: new Uint8Array(32),
    logsBloom: new Uint8Array(256),
    prevRandao: new Uint8Array(32),
    blockNumber: 0n,
    gasLimit: 0n,
    gasUsed: 0n,
    timestamp: 0n,
    extraData: new Uint8Array(0),
    baseFeePerGas: 0n,
    blockHash: new Uint8Array(32),
    transactionsRoot: new Uint8Array(32),
    withdrawalsRoot: new Uint8Array(32),
    blobGasUsed: 0n,
    excessBlobGas: 0n,
  },
  executionBranch: Array.from({ length: EXECUTION_BRANCH_DEPTH }, () => new Uint8Array(32)),
})

/**
 * A LightClientUpdate from the Beacon API's JSON of an update, a finality update (no next sync
 * committee) or an optimistic update (no finalized header either): what a part leaves out is the
 * container's default, as the specs' process_light_client_{finality,optimistic}_update build it.
 */
export function lightClientUpdateFromJson(
  json: unknown,
  fork: LightClientFork,
  config: BeaconConfig,
): LightClientUpdate {
  const size = config.preset.syncCommitteeSize
  const depths = branchDepths(fork)
  const has = (key: string) => typeof json === 'object' && json !== null && key in json
  const aggregate = field(json, 'sync_aggregate', 'update')
  const bits = hexOf(
    field(aggregate, 'sync_committee_bits', 'update.sync_aggregate'),
    size / 8,
    'update.sync_aggregate.sync_committee_bits',
  )
  return {
    attestedHeader: lightClientHeaderFromJson(field(json, 'attested_header', 'update'), fork, 'update.attested_header'),
    nextSyncCommittee: has('next_sync_committee')
      ? syncCommittee((json as Json).next_sync_committee, size, 'update.next_sync_committee')
      : { pubkeys: Array.from({ length: size }, () => new Uint8Array(48)), aggregatePubkey: new Uint8Array(48) },
    nextSyncCommitteeBranch: has('next_sync_committee_branch')
      ? branchOf((json as Json).next_sync_committee_branch, depths.syncCommittee, 'update.next_sync_committee_branch')
      : Array.from({ length: depths.syncCommittee }, () => new Uint8Array(32)),
    finalizedHeader: has('finalized_header')
      ? lightClientHeaderFromJson((json as Json).finalized_header, fork, 'update.finalized_header')
      : emptyHeader(),
    finalityBranch: has('finality_branch')
      ? branchOf((json as Json).finality_branch, depths.finality, 'update.finality_branch')
      : Array.from({ length: depths.finality }, () => new Uint8Array(32)),
    syncAggregate: {
      bits: unpackBits(bits, size),
      signature: hexOf(
        field(aggregate, 'sync_committee_signature', 'update.sync_aggregate'),
        96,
        'update.sync_aggregate.sync_committee_signature',
      ),
    },
    signatureSlot: slotOf(field(json, 'signature_slot', 'update'), 'update.signature_slot'),
  }
}
