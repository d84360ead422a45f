import {
  Common,
  Holesky,
  Hoodi,
  Mainnet,
  Sepolia,
  createCustomCommon,
  parseGethGenesis,
  type ChainConfig,
  type GethGenesis,
  type HardforksDict,
  type ParamsDict,
} from '@ethereumjs/common'
import { paramsBlock } from '@ethereumjs/block'
import { paramsEVM } from '@ethereumjs/evm'
import { paramsTx } from '@ethereumjs/tx'
import { paramsVM } from '@ethereumjs/vm'
import { BaseError } from '../errors/base.js'
import { type BlobParameters, normalizeGethGenesis } from './normalizeGethGenesis.js'
import { customCrypto } from './customCrypto.js'
import { unexecutableHardfork } from './executableHardforks.js'
import { KNOWN_BOR_CHAINS } from './bor/borChains.js'
import { type BorRules, borSpecFromGenesis, createBorCommon, createBorRules } from './bor/createBorRules.js'

/** Which rules apply at a block: the hardfork from chain id, number and timestamp. */
export type ChainRules = {
  readonly chainId: bigint
  /** A human-readable account of where the rules come from, for the banner. */
  readonly source: string
  /** A Common with the hardfork of that block (cached per hardfork; do not mutate). */
  commonFor(number: bigint, timestamp: bigint): Common
  /**
   * `--hardfork`'s fork, the rules of every block: the chain then has no fork schedule (its Common
   * still lists the base chain's, which do not apply).
   */
  readonly fixedHardfork?: string | undefined
  /** A Bor chain's (Polygon PoS) schedules and forks; undefined on any other chain. */
  readonly bor?: BorRules | undefined
  /** What the operator should read at start: the `--chain` file's fields that were ignored. */
  readonly warnings: readonly string[]
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

/** EIP-4844's blob gas per blob, the unit of the schedule's counts. */
const BLOB_GAS_PER_BLOB = 131072

/**
 * The genesis' blobSchedule as ethereumjs (10.1) parameters, each fork's values taking effect when
 * that fork activates and later forks without an entry keeping them, as erigon does (geth too, up to
 * its July 2026 change that ignores entries for named forks after Prague: an `osaka` entry).
 *
 * ethereumjs' own reading of a blobSchedule cannot be used: for a BPO fork it drops the fork's
 * `target`/`max` (which its blob gas schedule reads from bpo1 on), and it knows no bpo3…bpo5. So the
 * schedule is given in both of ethereumjs' shapes: named forks (cancun, prague, osaka) as hardfork-
 * scoped params (merged after their EIPs' values), BPO forks — which by EIP-7892 change nothing but
 * these parameters — as hardforks of their own carrying them.
 */
function blobScheduleOptions(
  schedule: Record<string, BlobParameters>,
  scheduled: ReadonlySet<string>,
): { params: ParamsDict; customHardforks: HardforksDict } {
  const params: ParamsDict = {}
  const customHardforks: HardforksDict = {}
  for (const [fork, s] of Object.entries(schedule)) {
    // An entry for a fork the chain does not schedule has no effect (geth and erigon ignore it too).
    if (!scheduled.has(fork)) continue
    const values = {
      target: s.target,
      max: s.max,
      targetBlobGasPerBlock: s.target * BLOB_GAS_PER_BLOB,
      maxBlobGasPerBlock: s.max * BLOB_GAS_PER_BLOB,
      blobGasPriceUpdateFraction: s.baseFeeUpdateFraction,
    }
    if (/^bpo\d$/.test(fork)) customHardforks[fork] = { eips: [], params: values }
    else params[fork] = values
  }
  return { params, customHardforks }
}

/** A Common for a normalized geth-style genesis, its blob schedule applied per fork. */
function commonFromGenesis(genesis: GethGenesis, name: string): Common {
  const { blobSchedule, ...config } = genesis.config as GethGenesis['config'] & {
    blobSchedule?: Record<string, BlobParameters>
  }
  const chain = parseGethGenesis({ ...genesis, config } as GethGenesis, name)
  // Besu's request contract addresses ride along in the chain's parameters (see requestContracts).
  const extra = config as Record<string, unknown>
  for (const key of ['withdrawalRequestContractAddress', 'consolidationRequestContractAddress']) {
    if (typeof extra[key] === 'string') (chain as unknown as Record<string, unknown>)[key] = extra[key]
  }
  const scheduled = new Set<string>(chain.hardforks.map((h: { name: string }) => h.name))
  const { params, customHardforks } = blobScheduleOptions(blobSchedule ?? {}, scheduled)
  return new Common({
    chain: { ...chain, customHardforks } as unknown as ChainConfig,
    params,
    ...(chain.hardfork !== undefined ? { hardfork: chain.hardfork } : {}),
    customCrypto,
  })
}

const KNOWN: ChainConfig[] = [Mainnet, Sepolia, Holesky, Hoodi]

/** The parameter sets ethereumjs' block, transaction, VM and EVM constructors merge into their Common. */
const LIBRARY_PARAMS: readonly ParamsDict[] = [paramsBlock, paramsTx, paramsVM, paramsEVM]

/**
 * Merges the library's parameter sets into a fork's Common once. Every header, transaction, VM and
 * EVM ethereumjs builds copies its Common and merges its set again (a JSON deep copy and a rebuilt
 * parameter cache: about a tenth of a replayed block's time in the profile); the copies of this one
 * (copy() takes its enumerable own fields) skip a set it already holds. Any other set is merged.
 */
function withLibraryParams(common: Common): void {
  for (const params of LIBRARY_PARAMS) common.updateParams(params)
  const update = Common.prototype.updateParams
  Object.defineProperty(common, 'updateParams', {
    value(this: Common, params: ParamsDict) {
      if (!LIBRARY_PARAMS.includes(params)) update.call(this, params)
    },
    enumerable: true,
    writable: true,
    configurable: true,
  })
}

export function createChainRules({ chainId, genesis: rawGenesis, hardfork }: CreateChainRulesParameters): ChainRules {
  // A Bor chain (Polygon PoS): known by chain id, or a genesis with a `bor` section.
  const borSpec =
    rawGenesis !== undefined
      ? borSpecFromGenesis(rawGenesis as unknown as { config?: Record<string, unknown> }, `chain-${chainId}`)
      : hardfork === undefined
        ? KNOWN_BOR_CHAINS.find((c) => BigInt(c.chainId) === chainId)
        : undefined
  const normalized =
    rawGenesis === undefined || borSpec !== undefined
      ? undefined
      : normalizeGethGenesis(rawGenesis as unknown as Record<string, unknown>)
  const genesis = normalized?.genesis
  const warnings: string[] = []
  if (normalized !== undefined && normalized.ignored.length > 0) {
    const names = normalized.ignored.map((key) => `"${key}"`).join(', ')
    warnings.push(
      `WARNING: --chain: ignoring genesis config field${normalized.ignored.length > 1 ? 's' : ''} edgetrace does not know: ${names} (geth ignores them too; if one changes execution on this chain, answers may differ from its nodes')`,
    )
  }
  const byFork = new Map<string, Common>()
  let base: Common
  let source: string
  let fixed = false
  if (borSpec !== undefined) {
    if (BigInt(borSpec.chainId) !== chainId) {
      throw new BaseError(`--chain file is for chain id ${borSpec.chainId}, but the upstream is chain ${chainId}`)
    }
    base = createBorCommon(borSpec)
    source =
      rawGenesis !== undefined ? `Bor genesis config (chain id ${chainId})` : `${borSpec.name} (chain id ${chainId})`
  } else if (genesis !== undefined) {
    const genesisChainId = BigInt(genesis.config.chainId)
    if (genesisChainId !== chainId) {
      throw new BaseError(`--chain file is for chain id ${genesisChainId}, but the upstream is chain ${chainId}`)
    }
    base = commonFromGenesis(genesis, genesis.name ?? `chain-${chainId}`)
    source = `genesis config (chain id ${chainId})`
  } else {
    const known = KNOWN.find((c) => BigInt(c.chainId) === chainId)
    if (known && hardfork === undefined) {
      base = new Common({ chain: known, customCrypto })
      source = `${known.name} (chain id ${chainId})`
    } else if (hardfork !== undefined) {
      const refused = unexecutableHardfork(hardfork)
      if (refused !== undefined) throw new BaseError(refused)
      base = createCustomCommon({ chainId: Number(chainId), name: `chain-${chainId}` }, known ?? Mainnet, {
        hardfork,
        customCrypto,
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
      withLibraryParams(common)
      byFork.set(name, common)
    }
    return common
  }

  return {
    chainId,
    source,
    fixedHardfork: fixed ? base.hardfork() : undefined,
    bor: borSpec ? createBorRules(borSpec) : undefined,
    warnings,
    commonFor(number, timestamp) {
      if (fixed) return forkCommon(base.hardfork())
      return forkCommon(base.getHardforkBy({ blockNumber: number, timestamp }))
    },
  }
}
