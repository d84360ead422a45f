import type { GethGenesis } from '@ethereumjs/common'

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

const KNOWN_CONFIG_KEYS = [
  'chainId',
  'daoForkBlock',
  'daoForkSupport',
  ...BLOCK_FORKS,
  'mergeForkBlock',
  'mergeNetsplitBlock',
  'terminalTotalDifficulty',
  'terminalTotalDifficultyPassed',
  'shanghaiTime',
  'cancunTime',
  'pragueTime',
  'osakaTime',
  'bpo1Time',
  'bpo2Time',
  'bpo3Time',
  'bpo4Time',
  'bpo5Time',
  'depositContractAddress',
  'blobSchedule',
  'ethash',
  'clique',
]

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

/**
 * Reads the geth-style genesis formats in use (geth, Besu, execution-apis/hive, geth's tracetest) into
 * the shape ethereumjs expects:
 * - keys are matched case-insensitively, as Go's JSON decoder and Besu do (`chainID`, `IstanbulBlock`);
 * - fork numbers given as strings become numbers;
 * - a block fork that is not given but a later one is, is active from that later fork on. Besu builds
 *   its milestones cumulatively (a genesis with only `istanbulBlock: 0` runs Istanbul with everything
 *   before it); ethereumjs would otherwise leave the missing forks' rules out.
 */
export function normalizeGethGenesis(input: Record<string, unknown>): GethGenesis {
  const genesis = canonicalKeys(input, TOP_LEVEL_KEYS)
  const config = canonicalKeys((genesis.config ?? {}) as Record<string, unknown>, KNOWN_CONFIG_KEYS)
  for (const key of [
    ...BLOCK_FORKS,
    'daoForkBlock',
    'mergeForkBlock',
    'mergeNetsplitBlock',
    'shanghaiTime',
    'cancunTime',
    'pragueTime',
    'osakaTime',
    'bpo1Time',
    'bpo2Time',
    'bpo3Time',
    'bpo4Time',
    'bpo5Time',
    'chainId',
  ]) {
    if (config[key] !== undefined && config[key] !== null) config[key] = asNumber(config[key])
  }
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
  genesis.config = config
  genesis.nonce ??= '0x0'
  genesis.timestamp ??= '0x0'
  genesis.alloc ??= {}
  return genesis as unknown as GethGenesis
}
