import type { GethGenesis } from '@ethereumjs/common'
import { BaseError } from '../errors/base.js'

/** Block-numbered forks in activation order (geth's ChainConfig field names). */
const BLOCK_FORKS = [
  'homesteadBlock',
  'eip150Block',
  'eip155Block',
  'eip158Block',
  'byzantiumBlock',
  'constantinopleBlock',
  'petersburgBlock',
  'istanbulBlock',
  'muirGlacierBlock',
  'berlinBlock',
  'londonBlock',
  'arrowGlacierBlock',
  'grayGlacierBlock',
] as const

/** Timestamp forks in activation order (geth's ChainConfig field names), all executed by ethereumjs. */
const TIME_FORKS = [
  'shanghaiTime',
  'cancunTime',
  'pragueTime',
  'osakaTime',
  'bpo1Time',
  'bpo2Time',
  'bpo3Time',
  'bpo4Time',
  'bpo5Time',
] as const

/**
 * Forks geth knows that change execution in ways edgetrace cannot follow yet (ethereumjs 10.1 has no
 * Bogota and no binary state trie; its Amsterdam is a draft that would also change the header). A
 * genesis that schedules one is refused rather than replayed by older rules.
 */
const UNSUPPORTED_FORKS: Record<string, string> = {
  amsterdamTime: 'the Amsterdam fork',
  bogotaTime: 'the Bogota fork',
  ubtTime: 'the binary state trie (UBT) transition',
  verkleTime: 'the Verkle transition',
  enableUBTAtGenesis: 'a binary state trie (UBT) from genesis',
  enableVerkleAtGenesis: 'a Verkle state trie from genesis',
}

/**
 * Fields read elsewhere or with no effect on execution: the consensus engines' sealing parameters,
 * geth's retired merge and checkpoint fields, Besu's network id.
 */
const NON_EXECUTION_KEYS = ['ethash', 'clique', 'terminalTotalDifficultyPassed', 'eip150Hash', 'networkId']

/**
 * The EIP-6110, EIP-7002 and EIP-7251 contracts a genesis may place elsewhere (geth reads the first,
 * Besu all three): a simulated Prague block parses deposits from the one and empties the others' queues.
 */
const REQUEST_CONTRACT_KEYS = [
  'depositContractAddress',
  'withdrawalRequestContractAddress',
  'consolidationRequestContractAddress',
] as const

/** Besu's names for the merge's fork block (geth's mergeNetsplitBlock). */
const MERGE_BLOCK_ALIASES = ['preMergeForkBlock', 'parisBlock'] as const

/** What bor's genesis config adds (read by the Bor chain rules; only with a `bor` section). */
const BOR_CONFIG_KEYS = ['bor', 'shanghaiBlock', 'cancunBlock', 'pragueBlock', 'burntContract']

const KNOWN_CONFIG_KEYS = [
  'chainId',
  'daoForkBlock',
  'daoForkSupport',
  ...BLOCK_FORKS,
  'mergeForkBlock',
  'mergeNetsplitBlock',
  'terminalTotalDifficulty',
  ...TIME_FORKS,
  ...REQUEST_CONTRACT_KEYS,
  ...MERGE_BLOCK_ALIASES,
  'blobSchedule',
  // Besu's older name for petersburgBlock.
  'constantinopleFixBlock',
  // Besu's (and hive's genesis files'): Frontier from block 0, the only place it can start.
  'frontierBlock',
  ...NON_EXECUTION_KEYS,
  ...Object.keys(UNSUPPORTED_FORKS),
]

/** The forks a blobSchedule may name (geth, erigon and EIP-7840 key them by fork name). */
const BLOB_FORKS = ['cancun', 'prague', 'osaka', 'bpo1', 'bpo2', 'bpo3', 'bpo4', 'bpo5', 'amsterdam'] as const
const BLOB_FIELDS = ['target', 'max', 'baseFeeUpdateFraction'] as const

/** One fork's blob parameters (EIP-7840): blob counts per block and the blob base fee's update fraction. */
export type BlobParameters = { target: number; max: number; baseFeeUpdateFraction: number }

export class GenesisConfigError extends BaseError {
  override name = 'GenesisConfigError'
}

const TOP_LEVEL_KEYS = [
  'config',
  'nonce',
  'timestamp',
  'extraData',
  'gasLimit',
  'difficulty',
  'mixHash',
  'coinbase',
  'alloc',
  'number',
  'gasUsed',
  'parentHash',
  'baseFeePerGas',
  'excessBlobGas',
  'blobGasUsed',
  'parentBeaconBlockRoot',
  'requestsHash',
  'name',
]

function canonicalKeys(obj: Record<string, unknown>, known: readonly string[]): Record<string, unknown> {
  const byLower = new Map(known.map((k) => [k.toLowerCase(), k]))
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(obj)) out[byLower.get(key.toLowerCase()) ?? key] = value
  return out
}

const asNumber = (v: unknown) => (typeof v === 'string' ? Number(v.startsWith('0x') ? BigInt(v) : BigInt(v)) : v)

/** A fork's block or time, or the chain id: a non-negative integer, as a JSON number or a decimal or hex string. */
function genesisNumber(key: string, value: unknown): number {
  let n: unknown
  try {
    n = asNumber(value)
  } catch {}
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
    throw new GenesisConfigError(`genesis config.${key} must be a non-negative integer, got ${JSON.stringify(value)}`)
  }
  return n
}

const isSet = (v: unknown) => v !== undefined && v !== null && v !== false

/**
 * Checks a blobSchedule and reads its numbers: every entry names a fork and gives all three
 * parameters (ethereumjs, erigon and Besu need them all; geth's zero defaults would be a zero target).
 */
function normalizeBlobSchedule(input: unknown): Record<string, BlobParameters> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new GenesisConfigError('genesis config.blobSchedule must be an object keyed by fork name')
  }
  const schedule = canonicalKeys(input as Record<string, unknown>, BLOB_FORKS)
  const out: Record<string, BlobParameters> = {}
  for (const [fork, raw] of Object.entries(schedule)) {
    if (!(BLOB_FORKS as readonly string[]).includes(fork)) {
      throw new GenesisConfigError(
        `unknown fork "${fork}" in genesis config.blobSchedule; known: ${BLOB_FORKS.join(', ')}`,
      )
    }
    if (raw === null || raw === undefined) continue
    const entry = canonicalKeys(raw as Record<string, unknown>, BLOB_FIELDS)
    for (const key of Object.keys(entry)) {
      if (!(BLOB_FIELDS as readonly string[]).includes(key)) {
        throw new GenesisConfigError(
          `unknown field "${key}" in genesis config.blobSchedule.${fork}; known: ${BLOB_FIELDS.join(', ')}`,
        )
      }
    }
    const values = BLOB_FIELDS.map((key) => {
      const value = asNumber(entry[key])
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
        throw new GenesisConfigError(
          `genesis config.blobSchedule.${fork}.${key} must be a non-negative integer (${BLOB_FIELDS.join(', ')} are all needed)`,
        )
      }
      return value
    })
    const [target, max, baseFeeUpdateFraction] = values as [number, number, number]
    if (baseFeeUpdateFraction === 0) {
      throw new GenesisConfigError(`genesis config.blobSchedule.${fork}.baseFeeUpdateFraction must not be 0`)
    }
    if (target > max) {
      throw new GenesisConfigError(`genesis config.blobSchedule.${fork}: target ${target} is above max ${max}`)
    }
    out[fork] = { target, max, baseFeeUpdateFraction }
  }
  return out
}

/**
 * Reads the geth-style genesis formats in use (geth, Besu, execution-apis/hive, geth's tracetest) into
 * the shape ethereumjs expects:
 * - keys are matched case-insensitively, as Go's JSON decoder and Besu do (`chainID`, `IstanbulBlock`);
 * - fork numbers given as strings become numbers;
 * - a block fork that is not given but a later one is, is active from that later fork on. Besu builds
 *   its milestones cumulatively (a genesis with only `istanbulBlock: 0` runs Istanbul with everything
 *   before it); ethereumjs would otherwise leave the missing forks' rules out;
 * - a config field edgetrace does not know is left out and named in `ignored` (geth's JSON decoder
 *   ignores unknown fields too, so a genesis geth loads — Besu's, with its `discovery` or
 *   `zeroBaseFee` — loads here); a known field with a wrong value, and a fork edgetrace cannot
 *   execute, are refused by name;
 * - Besu's `preMergeForkBlock` (or `parisBlock`) is geth's mergeNetsplitBlock;
 * - the request contracts' addresses must be addresses (see REQUEST_CONTRACT_KEYS);
 * - the blobSchedule is checked entry by entry (see normalizeBlobSchedule).
 */
export function normalizeGethGenesis(input: Record<string, unknown>): { genesis: GethGenesis; ignored: string[] } {
  const genesis = canonicalKeys(input, TOP_LEVEL_KEYS)
  const config = canonicalKeys((genesis.config ?? {}) as Record<string, unknown>, [
    ...KNOWN_CONFIG_KEYS,
    ...BOR_CONFIG_KEYS,
  ])
  // A Bor chain's config (bor's genesis format): its `bor` section, and forks it schedules by block.
  const known = isSet(config.bor) ? [...KNOWN_CONFIG_KEYS, ...BOR_CONFIG_KEYS] : KNOWN_CONFIG_KEYS
  const ignored: string[] = []
  for (const key of Object.keys(config)) {
    if (!known.includes(key)) {
      ignored.push(key)
      delete config[key]
      continue
    }
    if (key in UNSUPPORTED_FORKS && isSet(config[key])) {
      throw new GenesisConfigError(
        `genesis config.${key}: edgetrace cannot execute ${UNSUPPORTED_FORKS[key]} yet, so it cannot serve this chain`,
      )
    }
  }
  for (const key of [
    ...BLOCK_FORKS,
    'daoForkBlock',
    'mergeForkBlock',
    'mergeNetsplitBlock',
    ...TIME_FORKS,
    'chainId',
  ]) {
    if (config[key] !== undefined && config[key] !== null) config[key] = genesisNumber(key, config[key])
    else delete config[key]
  }
  for (const key of REQUEST_CONTRACT_KEYS) {
    const value = config[key]
    if (value === undefined || value === null) delete config[key]
    else if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value))
      throw new GenesisConfigError(`genesis config.${key} must be a 20-byte hex address, got ${JSON.stringify(value)}`)
    else config[key] = value.toLowerCase()
  }
  for (const alias of MERGE_BLOCK_ALIASES) {
    const value = config[alias]
    delete config[alias]
    if (value === undefined || value === null) continue
    const block = genesisNumber(alias, value)
    config.mergeNetsplitBlock ??= block
  }
  if (config.frontierBlock !== undefined && config.frontierBlock !== null && asNumber(config.frontierBlock) !== 0)
    throw new GenesisConfigError('genesis config.frontierBlock: Frontier starts at block 0')
  delete config.frontierBlock
  // geth moves the DAO's balances at daoForkBlock only on a chain that supports the fork (daoForkSupport).
  if (config.daoForkBlock !== undefined && config.daoForkSupport !== true) delete config.daoForkBlock
  if (config.constantinopleFixBlock !== undefined && config.constantinopleFixBlock !== null) {
    config.petersburgBlock ??= asNumber(config.constantinopleFixBlock)
  }
  delete config.constantinopleFixBlock
  // geth: a nil petersburgBlock with a set constantinopleBlock means Petersburg from Constantinople on.
  if (config.petersburgBlock === undefined && typeof config.constantinopleBlock === 'number') {
    config.petersburgBlock = config.constantinopleBlock
  }
  let later: number | undefined
  for (let i = BLOCK_FORKS.length - 1; i >= 0; i--) {
    const key = BLOCK_FORKS[i]!
    const value = config[key]
    if (typeof value === 'number') later = value
    else if (later !== undefined) config[key] = later
  }
  if (config.blobSchedule !== undefined && config.blobSchedule !== null) {
    config.blobSchedule = normalizeBlobSchedule(config.blobSchedule)
  } else delete config.blobSchedule
  // A BPO fork has no parameters but the genesis': geth refuses one scheduled without its entry, and
  // ethereumjs has built-in values for bpo1 and bpo2 only (mainnet's, which is what such a genesis
  // means outside geth).
  const schedule = (config.blobSchedule ?? {}) as Record<string, BlobParameters>
  for (const fork of ['bpo3', 'bpo4', 'bpo5']) {
    if (config[`${fork}Time`] !== undefined && schedule[fork] === undefined) {
      throw new GenesisConfigError(`genesis config.${fork}Time is set but blobSchedule has no entry for fork "${fork}"`)
    }
  }
  genesis.config = config
  genesis.nonce ??= '0x0'
  genesis.timestamp ??= '0x0'
  genesis.alloc ??= {}
  return { genesis: genesis as unknown as GethGenesis, ignored }
}
