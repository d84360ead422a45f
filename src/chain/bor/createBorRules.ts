import { type ChainConfig, Common, type HardforksDict } from '@ethereumjs/common'
import { BaseError } from '../../errors/base.js'
import type { Hex } from '../../types/hex.js'
import { customCrypto } from '../customCrypto.js'
import { type BorChainSpec, type BorConfig, borScheduleAt } from './borChains.js'

/** What Bor adds to a chain's rules: its schedules and forks, by block number. */
export type BorRules = {
  readonly spec: BorChainSpec
  /** Blocks per sprint at `number` (validator bytes sit on a sprint's last block). */
  sprintSize(number: bigint): bigint
  /** From Jaipur on, the base fee is part of the seal hash. */
  isJaipur(number: bigint): boolean
  /** From Napoli (Bor's Cancun) on, extraData carries RLP(validator bytes, tx dependencies). */
  isNapoli(number: bigint): boolean
  /** Where the block's base fee goes (undefined: burnt, before London). */
  burntContract(number: bigint): Hex | undefined
}

export function createBorRules(spec: BorChainSpec): BorRules {
  const napoli = BigInt(spec.forks.cancun ?? Number.MAX_SAFE_INTEGER)
  return {
    spec,
    sprintSize: (number) => BigInt(borScheduleAt(spec.bor.sprint, number) ?? 64),
    isJaipur: (number) => number >= BigInt(spec.bor.jaipurBlock),
    isNapoli: (number) => number >= napoli,
    burntContract: (number) => (spec.bor.burntContract ? borScheduleAt(spec.bor.burntContract, number) : undefined),
  }
}

/**
 * Bor's EVM forks as ethereumjs hardforks. Bor never merged (no Paris: DIFFICULTY stays the header's
 * difficulty), and its Shanghai, Cancun and Prague leave out what belongs to the beacon chain:
 * withdrawals (EIP-4895), blobs and the beacon root (EIP-4844, EIP-4788: its headers have none of
 * their fields), the execution-layer requests (EIP-6110, 7002, 7251, 7685). bor's Cancun jump table
 * also leaves out BLOBHASH and BLOBBASEFEE (EIP-4844's opcode, EIP-7516): both are invalid opcodes there.
 */
const BOR_HARDFORKS: HardforksDict = {
  shanghai: { eips: [3651, 3855, 3860] },
  cancun: { eips: [1153, 5656, 6780] },
  prague: { eips: [2537, 2935, 7623, 7702] },
}

/** A Common for a Bor chain: block-numbered forks, proof-of-authority consensus. */
export function createBorCommon(spec: BorChainSpec): Common {
  const f = spec.forks
  const hardforks: { name: string; block: number | null }[] = [
    { name: 'chainstart', block: 0 },
    { name: 'homestead', block: 0 },
    { name: 'tangerineWhistle', block: 0 },
    { name: 'spuriousDragon', block: 0 },
    { name: 'byzantium', block: 0 },
    { name: 'constantinople', block: 0 },
    { name: 'petersburg', block: 0 },
    { name: 'istanbul', block: f.istanbul },
    { name: 'muirGlacier', block: f.muirGlacier },
    { name: 'berlin', block: f.berlin },
    { name: 'london', block: f.london },
  ]
  if (f.shanghai !== undefined) hardforks.push({ name: 'shanghai', block: f.shanghai })
  if (f.cancun !== undefined) hardforks.push({ name: 'cancun', block: f.cancun })
  if (f.prague !== undefined) hardforks.push({ name: 'prague', block: f.prague })
  const chain = {
    name: spec.name,
    chainId: spec.chainId,
    defaultHardfork: hardforks.at(-1)!.name,
    consensus: { type: 'poa', algorithm: 'clique', clique: { period: spec.bor.period['0'] ?? 2, epoch: 30_000 } },
    comment: `Bor chain ${spec.chainId}`,
    url: '',
    genesis: { gasLimit: 10_000_000, difficulty: 1, nonce: '0x0000000000000000', extraData: '0x' },
    hardforks,
    bootstrapNodes: [],
    dnsNetworks: [],
    customHardforks: BOR_HARDFORKS,
  }
  return new Common({ chain: chain as unknown as ChainConfig, customCrypto })
}

const blockNumber = (raw: unknown, what: string): number => {
  const n = typeof raw === 'string' ? Number(raw) : raw
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
    throw new BaseError(`--chain: config.${what} must be a block number, got ${JSON.stringify(raw)}`)
  }
  return n
}

/** A geth-style genesis of a Bor chain (one with a `config.bor` section) as a chain spec; undefined for any other. */
export function borSpecFromGenesis(
  genesis: { config?: Record<string, unknown> },
  name: string,
): BorChainSpec | undefined {
  const config = genesis.config
  const bor = config?.bor as Record<string, unknown> | undefined
  if (!config || !bor || typeof bor !== 'object') return undefined
  const optional = (key: string) =>
    config[key] === undefined || config[key] === null ? undefined : blockNumber(config[key], key)
  const schedule = (key: string, required: boolean): Record<string, number> | undefined => {
    const raw = bor[key]
    if (raw === undefined || raw === null) {
      if (required) throw new BaseError(`--chain: config.bor.${key} is missing`)
      return undefined
    }
    if (typeof raw !== 'object') throw new BaseError(`--chain: config.bor.${key} must be an object of block → value`)
    return Object.fromEntries(
      Object.entries(raw).map(([k, v]) => [String(blockNumber(k, `bor.${key} key`)), blockNumber(v, `bor.${key}`)]),
    )
  }
  const borConfig: BorConfig = {
    period: schedule('period', true)!,
    producerDelay: schedule('producerDelay', false) ?? { '0': 0 },
    sprint: schedule('sprint', true)!,
    backupMultiplier: schedule('backupMultiplier', false) ?? { '0': 0 },
    stateSyncConfirmationDelay: schedule('stateSyncConfirmationDelay', false),
    validatorContract: String(
      bor.validatorContract ?? '0x0000000000000000000000000000000000001000',
    ).toLowerCase() as Hex,
    stateReceiverContract: String(
      bor.stateReceiverContract ?? '0x0000000000000000000000000000000000001001',
    ).toLowerCase() as Hex,
    burntContract:
      bor.burntContract && typeof bor.burntContract === 'object'
        ? (Object.fromEntries(
            Object.entries(bor.burntContract as Record<string, string>).map(([k, v]) => [k, String(v).toLowerCase()]),
          ) as Record<string, Hex>)
        : undefined,
    jaipurBlock: blockNumber(bor.jaipurBlock ?? 0, 'bor.jaipurBlock'),
    delhiBlock: blockNumber(bor.delhiBlock ?? 0, 'bor.delhiBlock'),
    indoreBlock: blockNumber(bor.indoreBlock ?? 0, 'bor.indoreBlock'),
    ahmedabadBlock:
      bor.ahmedabadBlock === undefined ? undefined : blockNumber(bor.ahmedabadBlock, 'bor.ahmedabadBlock'),
    bhilaiBlock: bor.bhilaiBlock === undefined ? undefined : blockNumber(bor.bhilaiBlock, 'bor.bhilaiBlock'),
    rioBlock: bor.rioBlock === undefined ? undefined : blockNumber(bor.rioBlock, 'bor.rioBlock'),
  }
  return {
    name,
    chainId: blockNumber(config.chainId, 'chainId'),
    forks: {
      istanbul: optional('istanbulBlock') ?? 0,
      muirGlacier: optional('muirGlacierBlock') ?? optional('istanbulBlock') ?? 0,
      berlin: optional('berlinBlock') ?? 0,
      london: optional('londonBlock') ?? 0,
      shanghai: optional('shanghaiBlock'),
      cancun: optional('cancunBlock'),
      prague: optional('pragueBlock'),
    },
    bor: borConfig,
  }
}
