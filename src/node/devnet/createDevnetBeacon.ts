import { bls12_381 } from '@noble/curves/bls12-381.js'
import { sha256 } from '@noble/hashes/sha2.js'
import {
  type BeaconConfig,
  parseBeaconConfig,
  periodAtSlot,
  slotsPerPeriod,
  syncCommitteeDomain,
} from '../../chain/beacon/beaconConfig.js'
import {
  type BeaconBlockHeader,
  type ExecutionPayloadHeader,
  type LightClientHeader,
  type SyncCommittee,
  beaconBlockHeaderRoot,
  executionPayloadHeaderRoot,
  syncCommitteeRoot,
} from '../../chain/beacon/lightClientContainers.js'
import { hashPair, merkleize, uint64Chunk } from '../../chain/beacon/ssz.js'
import { lightClientHeaderJson, syncCommitteeJson } from './lightClientHeaderJson.js'
import { type BeaconApiAnswer, type ServedBeaconApi, serveBeaconApi } from './serveBeaconApi.js'

// A beacon chain made up for devnets and tests (minimal preset, Electra from genesis, a block every
// slot): a sync committee of generated keys per period, headers whose body proves an execution
// payload header and whose state proves the finalized checkpoint and both sync committees, signed by
// the committee as the specs sign. Its light-client endpoints are served over HTTP as a Beacon API's,
// with switches that make it lie one way at a time. No validator, no fork choice: the chain is what
// `executionAt` says slot by slot.

const DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_'
const bls = bls12_381.longSignatures
const R = bls12_381.fields.Fr.ORDER
const te = new TextEncoder()
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`

/** How the beacon chain lies (undefined: honestly). */
export type BeaconLie =
  | 'signature'
  | 'participation'
  | 'finality branch'
  | 'execution branch'
  | 'fork'
  | 'period'
  | undefined

/** The lies a beacon chain can tell, for flags and tests. */
export const BEACON_LIES = [
  'signature',
  'participation',
  'finality branch',
  'execution branch',
  'fork',
  'period',
] as const satisfies readonly Exclude<BeaconLie, undefined>[]

const configKeys = (secondsPerSlot: number) => ({
  PRESET_BASE: 'minimal',
  GENESIS_FORK_VERSION: '0x00000001',
  ALTAIR_FORK_VERSION: '0x01000001',
  ALTAIR_FORK_EPOCH: '0',
  BELLATRIX_FORK_VERSION: '0x02000001',
  BELLATRIX_FORK_EPOCH: '0',
  CAPELLA_FORK_VERSION: '0x03000001',
  CAPELLA_FORK_EPOCH: '0',
  DENEB_FORK_VERSION: '0x04000001',
  DENEB_FORK_EPOCH: '0',
  ELECTRA_FORK_VERSION: '0x05000001',
  ELECTRA_FORK_EPOCH: '0',
  SECONDS_PER_SLOT: String(secondsPerSlot),
})

function scalarFrom(seed: string): bigint {
  let n = 0n
  for (const b of sha256(te.encode(seed))) n = (n << 8n) | BigInt(b)
  return (n % (R - 1n)) + 1n
}
const scalarBytes = (n: bigint) => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'))

/** A Merkle tree over `leaves` (a power of two of them): its root and any leaf's branch. */
function tree(leaves: Uint8Array[]) {
  const layers: Uint8Array[][] = [leaves]
  while (layers[layers.length - 1]!.length > 1) {
    const below = layers[layers.length - 1]!
    layers.push(Array.from({ length: below.length / 2 }, (_, i) => hashPair(below[2 * i]!, below[2 * i + 1]!)))
  }
  return {
    root: layers[layers.length - 1]![0]!,
    branch: (index: number) => layers.slice(0, -1).map((layer, d) => layer[(index >> d) ^ 1]!),
  }
}

export type DevnetBeacon = ReturnType<typeof createDevnetBeacon>

export type CreateDevnetBeaconParameters = {
  /** The clock's origin (seconds): slot s is at genesisTime + s × secondsPerSlot. */
  genesisTime?: number
  secondsPerSlot?: number
  committeeSize?: number
  /** The execution payload header of slot s's block (a real chain's block); made up otherwise. */
  executionAt?: (slot: number) => ExecutionPayloadHeader
  /** The chain's genesis validators root (what pins and signing domains are keyed by): one per chain. */
  genesisValidatorsRoot?: Uint8Array
}

/**
 * The chain up to `head` (a slot: the newest block, which signs its parent; whoever drives the chain
 * moves it). Slots below the head carry `executionAt(slot)`; light-client updates attest head − 1.
 */
export function createDevnetBeacon({
  genesisTime = 1_700_000_000,
  secondsPerSlot = 6,
  committeeSize = 32,
  executionAt,
  genesisValidatorsRoot = sha256(te.encode('edgetrace fixture beacon chain')),
}: CreateDevnetBeaconParameters = {}) {
  const keys = configKeys(secondsPerSlot)
  const config: BeaconConfig = parseBeaconConfig(keys, hex(genesisValidatorsRoot))
  if (config.preset.syncCommitteeSize !== committeeSize) throw new Error('the devnet beacon is minimal-preset only')
  const period = (slot: number) => periodAtSlot(config, slot)
  const epochSlots = config.preset.slotsPerEpoch

  const committees = new Map<number, { keys: bigint[]; committee: SyncCommittee; root: Uint8Array }>()
  function committeeOf(p: number) {
    let c = committees.get(p)
    if (!c) {
      const secrets = Array.from({ length: committeeSize }, (_, i) => scalarFrom(`period ${p} member ${i}`))
      const points = secrets.map((k) => bls.getPublicKey(scalarBytes(k)))
      const committee = {
        pubkeys: points.map((pt) => pt.toBytes()),
        aggregatePubkey: bls.aggregatePublicKeys(points).toBytes(),
      }
      c = { keys: secrets, committee, root: syncCommitteeRoot(committee) }
      committees.set(p, c)
    }
    return c
  }

  const madeUp = (slot: number): ExecutionPayloadHeader => ({
    parentHash: slot === 0 ? new Uint8Array(32) : sha256(te.encode(`execution block ${slot - 1}`)),
    feeRecipient: new Uint8Array(20),
    stateRoot: sha256(te.encode(`execution state ${slot}`)),
    receiptsRoot: sha256(te.encode(`execution receipts ${slot}`)),
    logsBloom: new Uint8Array(256),
    prevRandao: sha256(te.encode(`randao ${slot}`)),
    blockNumber: BigInt(slot),
    gasLimit: 30_000_000n,
    gasUsed: 0n,
    timestamp: BigInt(genesisTime + slot * secondsPerSlot),
    extraData: te.encode('fixture'),
    baseFeePerGas: 7n,
    blockHash: sha256(te.encode(`execution block ${slot}`)),
    transactionsRoot: sha256(te.encode('no transactions')),
    withdrawalsRoot: sha256(te.encode('no withdrawals')),
    blobGasUsed: 0n,
    excessBlobGas: 0n,
  })
  const execution = executionAt ?? madeUp
  const filler = (what: string, slot: number, i: number) => sha256(te.encode(`${what} ${slot} ${i}`))

  /** The block finalized in the state of `slot`: the first of the epoch two before its own (none early on). */
  const finalizedSlotAt = (slot: number) => Math.max(0, Math.floor(slot / epochSlots) - 2) * epochSlots

  const headers = new Map<number, { header: LightClientHeader; state: ReturnType<typeof tree> }>()
  const slotOfRoot = new Map<string, number>()
  /** Slot `slot`'s block, its parent's and its finalized block's built already. */
  function build(slot: number): { header: LightClientHeader; state: ReturnType<typeof tree> } {
    const exec = execution(slot)
    const body = tree(
      Array.from({ length: 16 }, (_, i) =>
        i === 9 ? executionPayloadHeaderRoot(exec, 'electra') : filler('body', slot, i),
      ),
    )
    const finalizedSlot = finalizedSlotAt(slot)
    const finalizedRoot =
      slot > 0 && finalizedSlot < slot
        ? beaconBlockHeaderRoot(headers.get(finalizedSlot)!.header.beacon)
        : new Uint8Array(32)
    const checkpoint = merkleize([uint64Chunk(BigInt(finalizedSlot / epochSlots)), finalizedRoot])
    const p = period(slot)
    // The state's top 64 leaves (Electra): 20 the finalized checkpoint, 22 and 23 the committees.
    const state = tree(
      Array.from({ length: 64 }, (_, i) =>
        i === 20
          ? checkpoint
          : i === 22
            ? committeeOf(p).root
            : i === 23
              ? committeeOf(p + 1).root
              : filler('state', slot, i),
      ),
    )
    const beacon: BeaconBlockHeader = {
      slot,
      proposerIndex: BigInt(slot % 64),
      parentRoot: slot === 0 ? new Uint8Array(32) : beaconBlockHeaderRoot(headers.get(slot - 1)!.header.beacon),
      stateRoot: state.root,
      bodyRoot: body.root,
    }
    const block = { header: { beacon, execution: exec, executionBranch: body.branch(9) }, state }
    headers.set(slot, block)
    slotOfRoot.set(hex(beaconBlockHeaderRoot(beacon)), slot)
    return block
  }
  /** Slot `slot`'s block; the blocks below it are built first, oldest first (a long chain takes no deep recursion). */
  function blockAt(slot: number): { header: LightClientHeader; state: ReturnType<typeof tree> } {
    const known = headers.get(slot)
    if (known) return known
    let from = slot
    while (from > 0 && !headers.has(from - 1)) from--
    for (let s = from; s < slot; s++) build(s)
    return build(slot)
  }

  const beacon = {
    config,
    genesisTime,
    secondsPerSlot,
    genesisValidatorsRoot,
    /** The newest slot with a block. */
    head: 4 * epochSlots,
    /** How it lies now (undefined: honestly). */
    lie: undefined as BeaconLie,
    /** Sync aggregates signed so far (each signed once, then answered from memory). */
    signatures: 0,
    blockAt,
    rootAt: (slot: number) => beaconBlockHeaderRoot(blockAt(slot).header.beacon),
    executionAt: execution,
    committeeOf,
    finalizedSlotAt,
    /** The clock a light client of this chain reads (ms): within the head slot. */
    now: () => (genesisTime + beacon.head * secondsPerSlot) * 1000 + 1000,
    /** Drops the blocks from `slot` on (their execution blocks changed: a devnet reverted). */
    forget(slot: number) {
      for (const [s, block] of headers)
        if (s >= slot) {
          headers.delete(s)
          slotOfRoot.delete(hex(beaconBlockHeaderRoot(block.header.beacon)))
        }
    },
    answer,
    /** Serves the light-client endpoints on loopback (`before`: brought up to date before each answer). */
    serve: (opts: { port?: number; before?: () => Promise<void> } = {}): Promise<ServedBeaconApi> =>
      serveBeaconApi({ answer, ...opts }),
  }

  /**
   * Aggregates signed so far, by what they sign and how (a head is asked for again and again until the
   * next block: signing is most of an answer's cost, 50 ms and more).
   */
  const signed = new Map<string, { sync_committee_bits: string; sync_committee_signature: string }>()
  /** The sync aggregate of the committee of `signatureSlot`'s period over `attested`, as the lie has it. */
  function aggregate(attested: LightClientHeader, signatureSlot: number) {
    const key = `${hex(beaconBlockHeaderRoot(attested.beacon))} ${signatureSlot} ${beacon.lie}`
    let out = signed.get(key)
    if (!out) {
      out = signAggregate(attested, signatureSlot)
      beacon.signatures++
      if (signed.size >= 256) signed.delete(signed.keys().next().value!)
      signed.set(key, out)
    }
    return out
  }
  function signAggregate(attested: LightClientHeader, signatureSlot: number) {
    const { keys: secrets } = committeeOf(period(signatureSlot))
    const signing = beacon.lie === 'participation' ? secrets.length / 4 : secrets.length
    const version = beacon.lie === 'fork' ? Uint8Array.from([4, 0, 0, 1]) : Uint8Array.from([5, 0, 0, 1])
    let root = merkleize([beaconBlockHeaderRoot(attested.beacon), syncCommitteeDomain(config, version)])
    if (beacon.lie === 'signature') root = sha256(root)
    // Signatures add up: the aggregate of the signers' is one signature by the sum of their keys.
    const sum = secrets.slice(0, signing).reduce((a, b) => (a + b) % R, 0n)
    const signature = bls.sign(bls.hash(root, DST), scalarBytes(sum)).toBytes()
    const bits = new Uint8Array(committeeSize / 8)
    for (let i = 0; i < signing; i++) bits[i >> 3]! |= 1 << (i & 7)
    return { sync_committee_bits: hex(bits), sync_committee_signature: hex(signature) }
  }

  /** An update attested at `attestedSlot`, signed one slot later; with the next committee and finality. */
  function updateJson(attestedSlot: number, parts: { committee: boolean; finality: boolean }) {
    const attested = blockAt(attestedSlot)
    const attestedHeader = structuredClone(attested.header)
    if (beacon.lie === 'execution branch') attestedHeader.execution.blockHash = sha256(te.encode('another block'))
    const out: Record<string, unknown> = { attested_header: lightClientHeaderJson(attestedHeader) }
    if (parts.committee) {
      out.next_sync_committee = syncCommitteeJson(committeeOf(period(attestedSlot) + 1).committee)
      out.next_sync_committee_branch = attested.state.branch(23).map(hex)
    }
    if (parts.finality) {
      const finalizedSlot = finalizedSlotAt(attestedSlot)
      out.finalized_header = lightClientHeaderJson(blockAt(finalizedSlot).header)
      // The checkpoint's root is leaf 1 of its container (leaf 20 of the state): one level more.
      const branch = [uint64Chunk(BigInt(finalizedSlot / epochSlots)), ...attested.state.branch(20)]
      if (beacon.lie === 'finality branch') branch[2] = sha256(branch[2]!)
      out.finality_branch = branch.map(hex)
    }
    out.sync_aggregate = aggregate(attestedHeader, attestedSlot + 1)
    out.signature_slot = String(attestedSlot + 1)
    return { version: 'electra', data: out }
  }

  /** The update of a period: attested late in it (or at the head), with the next committee and finality. */
  function periodUpdate(p: number) {
    const shown = beacon.lie === 'period' ? p + 1 : p
    const attested = Math.min(beacon.head - 1, (shown + 1) * slotsPerPeriod(config) - 2)
    return updateJson(attested, { committee: true, finality: true })
  }

  /** The Beacon API's answer to a GET of `url` (path and query). */
  function answer(url: URL): BeaconApiAnswer {
    const path = url.pathname
    if (path === '/eth/v1/beacon/genesis')
      return {
        status: 200,
        body: {
          data: {
            genesis_time: String(genesisTime),
            genesis_validators_root: hex(genesisValidatorsRoot),
            genesis_fork_version: keys.GENESIS_FORK_VERSION,
          },
        },
      }
    if (path === '/eth/v1/config/spec') return { status: 200, body: { data: keys } }
    const boot = path.match(/^\/eth\/v1\/beacon\/light_client\/bootstrap\/(0x[0-9a-fA-F]{64})$/)
    if (boot) {
      // Any block below the head (the head's own block only signs; it carries no attested header yet).
      const root = boot[1]!.toLowerCase()
      if (!slotOfRoot.has(root) && beacon.head > 0) blockAt(beacon.head - 1)
      const slot = slotOfRoot.get(root)
      if (slot === undefined || slot >= beacon.head)
        return { status: 404, body: { code: 404, message: 'LC bootstrap unavailable' } }
      const block = blockAt(slot)
      return {
        status: 200,
        body: {
          version: 'electra',
          data: {
            header: lightClientHeaderJson(block.header),
            current_sync_committee: syncCommitteeJson(committeeOf(period(slot)).committee),
            current_sync_committee_branch: block.state.branch(22).map(hex),
          },
        },
      }
    }
    if (path === '/eth/v1/beacon/light_client/updates') {
      const start = Number(url.searchParams.get('start_period'))
      const count = Number(url.searchParams.get('count'))
      if (!Number.isInteger(start) || start < 0 || !Number.isInteger(count) || count < 1)
        return { status: 400, body: { code: 400, message: 'start_period and count must be whole numbers' } }
      const out = []
      for (let p = start; p < start + Math.min(count, 128) && p <= period(beacon.head); p++) out.push(periodUpdate(p))
      return { status: 200, body: out }
    }
    if (path === '/eth/v1/beacon/light_client/finality_update')
      return { status: 200, body: updateJson(beacon.head - 1, { committee: false, finality: true }) }
    if (path === '/eth/v1/beacon/light_client/optimistic_update') {
      const { data } = updateJson(beacon.head - 1, { committee: false, finality: false })
      return { status: 200, body: { version: 'electra', data } }
    }
    if (path === '/eth/v1/beacon/headers/finalized') {
      const slot = finalizedSlotAt(beacon.head)
      return {
        status: 200,
        body: { data: { root: hex(beacon.rootAt(slot)), header: { message: { slot: String(slot) } } } },
      }
    }
    return { status: 404, body: { code: 404, message: `no route ${path}` } }
  }

  return beacon
}
