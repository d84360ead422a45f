import { type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { sha256 } from '@noble/hashes/sha2.js'
import {
  type BeaconConfig,
  parseBeaconConfig,
  periodAtSlot,
  slotsPerPeriod,
  syncCommitteeDomain,
} from '../../src/chain/beacon/beaconConfig.js'
import {
  type BeaconBlockHeader,
  type ExecutionPayloadHeader,
  type LightClientHeader,
  type SyncCommittee,
  beaconBlockHeaderRoot,
  executionPayloadHeaderRoot,
  syncCommitteeRoot,
} from '../../src/chain/beacon/lightClientContainers.js'
import { hashPair, merkleize, uint64Chunk } from '../../src/chain/beacon/ssz.js'

// A beacon chain made up for tests (minimal preset, Electra from genesis, a block every slot): a
// sync committee of generated keys per period, headers whose body proves an execution payload
// header and whose state proves the finalized checkpoint and both sync committees, signed by the
// committee as the specs sign. Served over HTTP as a Beacon API's light-client endpoints, with
// switches that make it lie one way at a time.

const DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_'
const bls = bls12_381.longSignatures
const R = bls12_381.fields.Fr.ORDER
const te = new TextEncoder()
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`

export type BeaconLie =
  | 'signature'
  | 'participation'
  | 'finality branch'
  | 'execution branch'
  | 'fork'
  | 'period'
  | undefined

const CONFIG_KEYS = {
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
  SECONDS_PER_SLOT: '6',
}

function scalarFrom(seed: string): bigint {
  let n = 0n
  for (const b of sha256(te.encode(seed))) n = (n << 8n) | BigInt(b)
  return (n % (R - 1n)) + 1n
}
const scalarBytes = (n: bigint) => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'))

/** A Merkle tree of depth `depth` over `leaves` (2^depth of them): its root and any leaf's branch. */
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

export type BeaconFixture = ReturnType<typeof createBeaconFixture>

/**
 * The chain up to `head` (a slot; the test moves it). `genesisTime` is the clock's origin: slot s is
 * at genesisTime + 6 s.
 */
export function createBeaconFixture({
  genesisTime = 1_700_000_000,
  committeeSize = 32,
  executionAt,
}: {
  genesisTime?: number
  committeeSize?: number
  /** The execution payload header of slot s's block (a real chain's block s); made up otherwise. */
  executionAt?: (slot: number) => ExecutionPayloadHeader
} = {}) {
  const genesisValidatorsRoot = sha256(te.encode('edgetrace fixture beacon chain'))
  const config: BeaconConfig = parseBeaconConfig(CONFIG_KEYS, hex(genesisValidatorsRoot))
  if (config.preset.syncCommitteeSize !== committeeSize) throw new Error('the fixture is minimal-preset only')
  const period = (slot: number) => periodAtSlot(config, slot)
  const epochSlots = config.preset.slotsPerEpoch

  const committees = new Map<number, { keys: bigint[]; committee: SyncCommittee; root: Uint8Array }>()
  function committeeOf(p: number) {
    let c = committees.get(p)
    if (!c) {
      const keys = Array.from({ length: committeeSize }, (_, i) => scalarFrom(`period ${p} member ${i}`))
      const points = keys.map((k) => bls.getPublicKey(scalarBytes(k)))
      const committee = {
        pubkeys: points.map((pt) => pt.toBytes()),
        aggregatePubkey: bls.aggregatePublicKeys(points).toBytes(),
      }
      c = { keys, committee, root: syncCommitteeRoot(committee) }
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
    timestamp: BigInt(genesisTime + slot * 6),
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
  function blockAt(slot: number): { header: LightClientHeader; state: ReturnType<typeof tree> } {
    const known = headers.get(slot)
    if (known) return known
    const exec = execution(slot)
    const body = tree(
      Array.from({ length: 16 }, (_, i) =>
        i === 9 ? executionPayloadHeaderRoot(exec, 'electra') : filler('body', slot, i),
      ),
    )
    const finalizedSlot = finalizedSlotAt(slot)
    const finalizedRoot =
      slot > 0 && finalizedSlot < slot
        ? beaconBlockHeaderRoot(blockAt(finalizedSlot).header.beacon)
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
      parentRoot: slot === 0 ? new Uint8Array(32) : beaconBlockHeaderRoot(blockAt(slot - 1).header.beacon),
      stateRoot: state.root,
      bodyRoot: body.root,
    }
    const block = { header: { beacon, execution: exec, executionBranch: body.branch(9) }, state }
    headers.set(slot, block)
    return block
  }

  const fixture = {
    config,
    genesisTime,
    secondsPerSlot: 6,
    genesisValidatorsRoot,
    /** The newest slot with a block. */
    head: 4 * epochSlots,
    /** How it lies now (undefined: honestly). */
    lie: undefined as BeaconLie,
    blockAt,
    rootAt: (slot: number) => beaconBlockHeaderRoot(blockAt(slot).header.beacon),
    executionAt: execution,
    committeeOf,
    /** The clock a light client of this chain reads (ms): the head slot's time. */
    now: () => (genesisTime + fixture.head * 6) * 1000 + 1000,
  }

  function headerJson(h: LightClientHeader) {
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
  const committeeJson = (c: SyncCommittee) => ({
    pubkeys: c.pubkeys.map(hex),
    aggregate_pubkey: hex(c.aggregatePubkey),
  })

  /** The sync aggregate of the committee of `signatureSlot`'s period over `attested`, as the lie has it. */
  function aggregate(attested: LightClientHeader, signatureSlot: number) {
    const { keys } = committeeOf(period(signatureSlot))
    const signing = fixture.lie === 'participation' ? keys.length / 4 : keys.length
    const version = fixture.lie === 'fork' ? Uint8Array.from([4, 0, 0, 1]) : Uint8Array.from([5, 0, 0, 1])
    let root = merkleize([beaconBlockHeaderRoot(attested.beacon), syncCommitteeDomain(config, version)])
    if (fixture.lie === 'signature') root = sha256(root)
    // Signatures add up: the aggregate of the signers' is one signature by the sum of their keys.
    const sum = keys.slice(0, signing).reduce((a, b) => (a + b) % R, 0n)
    const signature = bls.sign(bls.hash(root, DST), scalarBytes(sum)).toBytes()
    const bits = new Uint8Array(committeeSize / 8)
    for (let i = 0; i < signing; i++) bits[i >> 3]! |= 1 << (i & 7)
    return { sync_committee_bits: hex(bits), sync_committee_signature: hex(signature) }
  }

  /** An update attested at `attestedSlot`, signed one slot later; with the next committee and finality. */
  function updateJson(attestedSlot: number, parts: { committee: boolean; finality: boolean }) {
    const attested = blockAt(attestedSlot)
    const attestedHeader = structuredClone(attested.header)
    if (fixture.lie === 'execution branch') attestedHeader.execution.blockHash = sha256(te.encode('another block'))
    const out: Record<string, unknown> = { attested_header: headerJson(attestedHeader) }
    if (parts.committee) {
      out.next_sync_committee = committeeJson(committeeOf(period(attestedSlot) + 1).committee)
      out.next_sync_committee_branch = attested.state.branch(23).map(hex)
    }
    if (parts.finality) {
      const finalizedSlot = finalizedSlotAt(attestedSlot)
      out.finalized_header = headerJson(blockAt(finalizedSlot).header)
      // The checkpoint's root is leaf 1 of its container (leaf 20 of the state): one level more.
      const branch = [uint64Chunk(BigInt(finalizedSlot / epochSlots)), ...attested.state.branch(20)]
      if (fixture.lie === 'finality branch') branch[2] = sha256(branch[2]!)
      out.finality_branch = branch.map(hex)
    }
    out.sync_aggregate = aggregate(attestedHeader, attestedSlot + 1)
    out.signature_slot = String(attestedSlot + 1)
    return { version: 'electra', data: out }
  }

  /** The update of a period: attested late in it (or at the head), with the next committee and finality. */
  function periodUpdate(p: number) {
    const shown = fixture.lie === 'period' ? p + 1 : p
    const attested = Math.min(fixture.head - 1, (shown + 1) * slotsPerPeriod(config) - 2)
    return updateJson(attested, { committee: true, finality: true })
  }

  async function serve(): Promise<{ url: string; server: Server; close(): Promise<void> }> {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://fixture')
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
      }
      const path = url.pathname
      try {
        if (path === '/eth/v1/beacon/genesis')
          return send(200, {
            data: {
              genesis_time: String(genesisTime),
              genesis_validators_root: hex(genesisValidatorsRoot),
              genesis_fork_version: '0x00000001',
            },
          })
        if (path === '/eth/v1/config/spec') return send(200, { data: CONFIG_KEYS })
        const boot = path.match(/^\/eth\/v1\/beacon\/light_client\/bootstrap\/(0x[0-9a-f]{64})$/)
        if (boot) {
          for (let slot = fixture.head; slot >= 0; slot--) {
            if (hex(fixture.rootAt(slot)) !== boot[1]) continue
            const block = blockAt(slot)
            return send(200, {
              version: 'electra',
              data: {
                header: headerJson(block.header),
                current_sync_committee: committeeJson(committeeOf(period(slot)).committee),
                current_sync_committee_branch: block.state.branch(22).map(hex),
              },
            })
          }
          return send(404, { code: 404, message: 'LC bootstrap unavailable' })
        }
        if (path === '/eth/v1/beacon/light_client/updates') {
          const start = Number(url.searchParams.get('start_period'))
          const count = Number(url.searchParams.get('count'))
          const out = []
          for (let p = start; p < start + count && p <= period(fixture.head); p++) out.push(periodUpdate(p))
          return send(200, out)
        }
        if (path === '/eth/v1/beacon/light_client/finality_update')
          return send(200, updateJson(fixture.head - 1, { committee: false, finality: true }))
        if (path === '/eth/v1/beacon/light_client/optimistic_update') {
          const { data } = updateJson(fixture.head - 1, { committee: false, finality: false })
          return send(200, { version: 'electra', data })
        }
        if (path === '/eth/v1/beacon/headers/finalized') {
          const slot = finalizedSlotAt(fixture.head)
          return send(200, { data: { root: hex(fixture.rootAt(slot)), header: { message: { slot: String(slot) } } } })
        }
        send(404, { code: 404, message: `no route ${path}` })
      } catch (err) {
        send(500, { code: 500, message: (err as Error).message })
      }
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      server,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    }
  }

  return Object.assign(fixture, { serve })
}

/** An execution block as the Beacon API's payload header carries it (from a JSON-RPC block). */
export function executionPayloadHeaderOf(block: Record<string, string>): ExecutionPayloadHeader {
  const b = (key: string, length: number) => {
    const out = Uint8Array.from(Buffer.from((block[key] ?? '0x').slice(2), 'hex'))
    if (length >= 0 && out.length !== length) return new Uint8Array(length)
    return out
  }
  return {
    parentHash: b('parentHash', 32),
    feeRecipient: b('miner', 20),
    stateRoot: b('stateRoot', 32),
    receiptsRoot: b('receiptsRoot', 32),
    logsBloom: b('logsBloom', 256),
    prevRandao: b('mixHash', 32),
    blockNumber: BigInt(block.number!),
    gasLimit: BigInt(block.gasLimit!),
    gasUsed: BigInt(block.gasUsed!),
    timestamp: BigInt(block.timestamp!),
    extraData: b('extraData', -1),
    baseFeePerGas: BigInt(block.baseFeePerGas ?? 0),
    blockHash: b('hash', 32),
    transactionsRoot: b('transactionsRoot', 32),
    withdrawalsRoot: b('withdrawalsRoot', 32),
    blobGasUsed: BigInt(block.blobGasUsed ?? 0),
    excessBlobGas: BigInt(block.excessBlobGas ?? 0),
  }
}
