import { GAS_PER_BLOB } from '../../utils/gasPerBlob.js'
import { paramsBlock } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { getActivePrecompiles } from '@ethereumjs/evm'
import { hexToBytes } from '@ethereumjs/util'
import { type ForkSchedule, chainForks, forkHash } from '../../chain/forkId.js'
import { PRECOMPILE_NAMES } from '../../chain/precompileNames.js'
import { requestContracts } from '../../chain/requestContracts.js'
import type { Hex } from '../../types/hex.js'
import { goMapOrder } from '../../utils/goMapOrder.js'
import { quantity } from '../../utils/hex.js'
import { defineMethod } from '../defineMethod.js'

/** The timestamp-activated forks in geth's order (its forks.Fork enum from Shanghai on). */
const TIME_FORKS = ['shanghai', 'cancun', 'prague', 'osaka', 'bpo1', 'bpo2', 'bpo3', 'bpo4', 'bpo5', 'amsterdam']
const MAX_UINT64 = 2n ** 64n - 1n

/** EIP-7002/7251/2935/4788's system contracts, at their fixed addresses. */
const BEACON_ROOTS = '0x000f3df6d732807ef1319fb7b8bb8522d0beac02'
const HISTORY_STORAGE_ADDRESS = '0x0000f90827f1c53a10cb7a02335b175320002935'

function tryParam(common: Common, name: string): bigint | undefined {
  try {
    return BigInt(common.param(name))
  } catch {
    return undefined
  }
}

/** The fork's blob schedule (target, max, update fraction) in blobs; null before EIP-4844. */
function blobSchedule(common: Common): Record<string, number> | null {
  if (!common.isActivatedEIP(4844)) return null
  const c = common.copy()
  c.updateParams(paramsBlock)
  // A BPO fork carries its counts directly (what ethereumjs' blob gas reads from bpo1 on).
  const target = tryParam(c, 'target') ?? c.param('targetBlobGasPerBlock') / GAS_PER_BLOB
  const max = tryParam(c, 'max') ?? c.param('maxBlobGasPerBlock') / GAS_PER_BLOB
  return {
    target: Number(target),
    max: Number(max),
    baseFeeUpdateFraction: Number(c.param('blobGasPriceUpdateFraction')),
  }
}

function systemContracts(common: Common): Record<string, string> {
  const out: Record<string, string> = {}
  if (common.isActivatedEIP(4788)) out.BEACON_ROOTS_ADDRESS = BEACON_ROOTS
  if (common.gteHardfork('prague')) {
    // The request contracts where this chain has them (a Besu genesis may move the queues).
    const contracts = requestContracts(common)
    out.CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS = contracts.consolidationQueue
    out.HISTORY_STORAGE_ADDRESS = HISTORY_STORAGE_ADDRESS
    out.WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS = contracts.withdrawalQueue
    out.DEPOSIT_CONTRACT_ADDRESS = contracts.deposit ?? '0x0000000000000000000000000000000000000000'
  }
  return goMapOrder(out)
}

type ForkContext = {
  genesisHash: Uint8Array
  genesisTime: bigint
  forks: ForkSchedule
  chainId: bigint
  /** --hardfork: every block runs this fork, so it and those before it are active from genesis. */
  fixed: string | undefined
}

/** When a timestamp fork activates on this chain, or null when it is not scheduled. */
function scheduledTime(base: Common, fork: string, ctx: ForkContext): bigint | null {
  if (ctx.fixed !== undefined) {
    const fixedAt = TIME_FORKS.indexOf(ctx.fixed)
    return fixedAt >= 0 && TIME_FORKS.indexOf(fork) <= fixedAt ? ctx.genesisTime : null
  }
  return base.hardforks().some((h) => h.name === fork) ? base.hardforkTimestamp(fork) : null
}

/** One fork's configuration as EIP-7910 describes it (geth's `config`), or null when unscheduled. */
function describeFork(base: Common, fork: string | undefined, ctx: ForkContext): Record<string, unknown> | null {
  if (fork === undefined) return null
  const time = scheduledTime(base, fork, ctx)
  if (time === null) return null
  const common = base.copy()
  common.setHardfork(fork)
  const precompiles: Record<string, string> = {}
  for (const address of getActivePrecompiles(common).keys()) {
    const name = PRECOMPILE_NAMES[Number.parseInt(address, 16)]
    if (name) precompiles[name] = `0x${address}`
  }
  return {
    activationTime: Number(ctx.genesisTime >= time ? 0n : time),
    blobSchedule: blobSchedule(common),
    chainId: quantity(ctx.chainId),
    forkId: forkHash(ctx.genesisHash, ctx.forks, MAX_UINT64, time),
    precompiles: goMapOrder(precompiles),
    systemContracts: systemContracts(common),
  }
}

/** geth's LatestFork: the last timestamp fork active at `time`, if any. */
function latestFork(common: Common, time: bigint, ctx: ForkContext): number {
  let latest = -1
  TIME_FORKS.forEach((fork, i) => {
    const at = scheduledTime(common, fork, ctx)
    if (at !== null && at <= time) latest = i
  })
  return latest
}

/**
 * eth_config (EIP-7910): the fork in force at the verified head and the next and last scheduled
 * ones — activation time, blob schedule, chain id, EIP-2124 fork id, precompiles and system
 * contracts by name — computed from the chain's rules and the verified genesis hash, as geth does
 * (null `current` before Shanghai; `next` is the fork right after the current one, null when it is
 * not scheduled, and `last` is null with it).
 */
export const config = defineMethod({
  name: 'eth_config',
  params: [],
  async run(engine) {
    const [genesis, head] = await Promise.all([
      engine.headers.resolve({ kind: 'number', number: 0n }),
      engine.headers.resolve({ kind: 'tag', tag: 'latest' }),
    ])
    const base = engine.rules.commonFor(head.number, head.header.timestamp)
    const genesisTime = genesis.header.timestamp
    const ctx: ForkContext = {
      genesisHash: hexToBytes(genesis.hash as Hex),
      genesisTime,
      forks: chainForks(base, genesisTime, engine.rules.fixedHardfork),
      chainId: engine.rules.chainId,
      fixed: engine.rules.fixedHardfork,
    }
    const current = latestFork(base, head.header.timestamp, ctx)
    const next = describeFork(base, TIME_FORKS[current + 1], ctx)
    return {
      current: describeFork(base, TIME_FORKS[current], ctx),
      next,
      last: next === null ? null : describeFork(base, TIME_FORKS[latestFork(base, MAX_UINT64, ctx)], ctx),
    }
  },
})
