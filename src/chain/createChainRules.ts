import {
  Common,
  Holesky,
  Hoodi,
  Mainnet,
  Sepolia,
  createCommonFromGethGenesis,
  createCustomCommon,
  type ChainConfig,
  type GethGenesis,
} from '@ethereumjs/common'
import { BaseError } from '../errors/base.js'
import { normalizeGethGenesis } from './normalizeGethGenesis.js'
import { replayKzg } from './replayKzg.js'

/** Which rules apply at a block: the hardfork from chain id, number and timestamp. */
export type ChainRules = {
  readonly chainId: bigint
  /** A human-readable account of where the rules come from, for the banner. */
  readonly source: string
  /** A Common with the hardfork of that block (cached per hardfork; do not mutate). */
  commonFor(number: bigint, timestamp: bigint): Common
}

export type CreateChainRulesParameters = {
  chainId: bigint
  /** A geth-style genesis file's content (`--chain`); its `config` names the forks. */
  genesis?: GethGenesis | undefined
  /** One hardfork for every block (`--hardfork`), for devnets. */
  hardfork?: string | undefined
}

export class UnknownChainError extends BaseError {
  override name = 'UnknownChainError'
  constructor(chainId: bigint) {
    super(
      `chain id ${chainId} is not a known chain: pass --chain <geth-style genesis file> or --hardfork <name> (for example --hardfork prague)`,
    )
  }
}

/**
 * ethereumjs (10.1) replaces a BPO fork's own blob parameters (`target`, `max`) when the genesis'
 * blobSchedule names that fork, and then cannot compute its blob gas schedule. A schedule that
 * equals ethereumjs' built-in one is left out (the built-in applies); any other is refused clearly.
 */
function withoutDefaultBpoSchedules(genesis: GethGenesis): GethGenesis {
  const schedule = (
    genesis.config as {
      blobSchedule?: Record<string, { target?: number; max?: number; baseFeeUpdateFraction?: number }>
    }
  ).blobSchedule
  if (!schedule) return genesis
  const kept: typeof schedule = {}
  for (const [fork, s] of Object.entries(schedule)) {
    if (/^bpo\d+$/.test(fork)) {
      const reference = new Common({ chain: Mainnet })
      reference.setHardfork(fork)
      if (
        reference.param('target') !== BigInt(s.target ?? -1) ||
        reference.param('max') !== BigInt(s.max ?? -1) ||
        reference.param('blobGasPriceUpdateFraction') !== BigInt(s.baseFeeUpdateFraction ?? -1)
      ) {
        throw new BaseError(
          `blobSchedule.${fork} differs from the built-in ${fork} parameters; custom BPO schedules are not supported`,
        )
      }
      continue
    }
    kept[fork] = s
  }
  return { ...genesis, config: { ...genesis.config, blobSchedule: kept } as GethGenesis['config'] }
}

const KNOWN: ChainConfig[] = [Mainnet, Sepolia, Holesky, Hoodi]

export function createChainRules({ chainId, genesis: rawGenesis, hardfork }: CreateChainRulesParameters): ChainRules {
  const genesis =
    rawGenesis === undefined ? undefined : normalizeGethGenesis(rawGenesis as unknown as Record<string, unknown>)
  const byFork = new Map<string, Common>()
  let base: Common
  let source: string
  let fixed = false
  if (genesis !== undefined) {
    const genesisChainId = BigInt(genesis.config.chainId)
    if (genesisChainId !== chainId) {
      throw new BaseError(`--chain file is for chain id ${genesisChainId}, but the upstream is chain ${chainId}`)
    }
    base = createCommonFromGethGenesis(withoutDefaultBpoSchedules(genesis), {
      chain: genesis.name ?? `chain-${chainId}`,
      customCrypto: { kzg: replayKzg },
    })
    source = `genesis config (chain id ${chainId})`
  } else {
    const known = KNOWN.find((c) => BigInt(c.chainId) === chainId)
    if (known && hardfork === undefined) {
      base = new Common({ chain: known, customCrypto: { kzg: replayKzg } })
      source = `${known.name} (chain id ${chainId})`
    } else if (hardfork !== undefined) {
      const hardforks = Mainnet.hardforks.map((h) => h.name)
      if (!hardforks.includes(hardfork)) {
        throw new BaseError(`unknown hardfork "${hardfork}"; known: ${hardforks.join(', ')}`)
      }
      base = createCustomCommon({ chainId: Number(chainId), name: `chain-${chainId}` }, known ?? Mainnet, {
        hardfork,
        customCrypto: { kzg: replayKzg },
      })
      source = `--hardfork ${hardfork} (chain id ${chainId})`
      fixed = true
    } else {
      throw new UnknownChainError(chainId)
    }
  }

  function forkCommon(name: string): Common {
    let common = byFork.get(name)
    if (!common) {
      common = base.copy()
      common.setHardfork(name)
      byFork.set(name, common)
    }
    return common
  }

  return {
    chainId,
    source,
    commonFor(number, timestamp) {
      if (fixed) return forkCommon(base.hardfork())
      return forkCommon(base.getHardforkBy({ blockNumber: number, timestamp }))
    },
  }
}
