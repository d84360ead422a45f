import type { Hex } from '../../types/hex.js'

/** A block-number schedule as Bor writes it: the value of the greatest key at or below the block. */
export type BorSchedule = Readonly<Record<string, number>>

/** The `bor` section of a Bor chain's config (bor's params.BorConfig; block numbers as numbers). */
export type BorConfig = {
  period: BorSchedule
  producerDelay: BorSchedule
  sprint: BorSchedule
  backupMultiplier: BorSchedule
  stateSyncConfirmationDelay?: BorSchedule | undefined
  validatorContract: Hex
  stateReceiverContract: Hex
  /** Where the base fee goes instead of being burnt, from each block on. */
  burntContract?: Readonly<Record<string, Hex>> | undefined
  jaipurBlock: number
  delhiBlock: number
  indoreBlock: number
  ahmedabadBlock?: number | undefined
  bhilaiBlock?: number | undefined
  rioBlock?: number | undefined
}

/**
 * A Bor chain: its EVM forks by block number (Bor schedules Shanghai, Cancun and Prague by block —
 * Agra, Napoli and Bhilai) and its `bor` section.
 */
export type BorChainSpec = {
  name: string
  chainId: number
  forks: {
    istanbul: number
    muirGlacier: number
    berlin: number
    london: number
    shanghai?: number | undefined
    cancun?: number | undefined
    prague?: number | undefined
  }
  bor: BorConfig
}

/** Polygon PoS mainnet, as bor v2.2.11 (params/config.go BorMainnetChainConfig) defines it. */
export const BOR_MAINNET: BorChainSpec = {
  name: 'Polygon PoS mainnet',
  chainId: 137,
  forks: {
    istanbul: 3_395_000,
    muirGlacier: 3_395_000,
    berlin: 14_750_000,
    london: 23_850_000,
    shanghai: 50_523_000,
    cancun: 54_876_000,
    prague: 73_440_256,
  },
  bor: {
    period: { '0': 2 },
    producerDelay: { '0': 6, '38189056': 4 },
    sprint: { '0': 64, '38189056': 16 },
    backupMultiplier: { '0': 2 },
    stateSyncConfirmationDelay: { '44934656': 128 },
    validatorContract: '0x0000000000000000000000000000000000001000',
    stateReceiverContract: '0x0000000000000000000000000000000000001001',
    burntContract: {
      '23850000': '0x70bca57f4579f58670ab2d18ef16e02c17553c38',
      '50523000': '0x7a8ed27f4c30512326878652d20fc85727401854',
    },
    jaipurBlock: 23_850_000,
    delhiBlock: 38_189_056,
    indoreBlock: 44_934_656,
    ahmedabadBlock: 62_278_656,
    bhilaiBlock: 73_440_256,
    rioBlock: 77_369_856,
  },
}

/** Polygon PoS Amoy testnet, as bor v2.2.11 (AmoyChainConfig) defines it. */
export const BOR_AMOY: BorChainSpec = {
  name: 'Polygon PoS Amoy',
  chainId: 80002,
  forks: {
    istanbul: 0,
    muirGlacier: 0,
    berlin: 0,
    london: 73_100,
    shanghai: 73_100,
    cancun: 5_423_600,
    prague: 22_765_056,
  },
  bor: {
    period: { '0': 2 },
    producerDelay: { '0': 4 },
    sprint: { '0': 16 },
    backupMultiplier: { '0': 2 },
    stateSyncConfirmationDelay: { '0': 128 },
    validatorContract: '0x0000000000000000000000000000000000001000',
    stateReceiverContract: '0x0000000000000000000000000000000000001001',
    burntContract: {
      '0': '0x000000000000000000000000000000000000dead',
      '73100': '0xecdd77ce6f146ccf5dab707941d318bd50eed2c9',
    },
    jaipurBlock: 73_100,
    delhiBlock: 73_100,
    indoreBlock: 73_100,
    ahmedabadBlock: 11_865_856,
    bhilaiBlock: 22_765_056,
  },
}

export const KNOWN_BOR_CHAINS: readonly BorChainSpec[] = [BOR_MAINNET, BOR_AMOY]

/** A schedule's value at `number` (the greatest key at or below it); undefined before its first key. */
export function borScheduleAt<value>(schedule: Readonly<Record<string, value>>, number: bigint): value | undefined {
  let best: bigint | undefined
  let out: value | undefined
  for (const [key, v] of Object.entries(schedule)) {
    const from = BigInt(key)
    if (from <= number && (best === undefined || from > best)) {
      best = from
      out = v
    }
  }
  return out
}
