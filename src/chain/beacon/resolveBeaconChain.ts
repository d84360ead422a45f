import { BaseError } from '../../errors/base.js'
import type { BeaconApi } from '../../upstream/createBeaconApi.js'
import { type BeaconConfig, parseBeaconConfig } from './beaconConfig.js'
import { type KnownNetwork, knownNetworkConfig } from './knownNetworks.js'

/** A beacon chain as the light client needs it: its config and clock. */
export type BeaconChain = {
  config: BeaconConfig
  genesisTime: number
  secondsPerSlot: number
  /** The genesis validators root (0x, lowercase): the chain's name in a pin store. */
  genesisValidatorsRoot: string
  /** The known network whose config this is (edgetrace's own); undefined when the config is the node's or a file's. */
  network?: KnownNetwork | undefined
}

/** A beacon node that serves another chain than the one asked for. */
export class BeaconChainMismatchError extends BaseError {
  override name = 'BeaconChainMismatchError'
}

const secondsPerSlotOf = (keys: Record<string, unknown>) =>
  keys.SECONDS_PER_SLOT !== undefined ? Number(keys.SECONDS_PER_SLOT) : Number(keys.SLOT_DURATION_MS) / 1000

/**
 * Which beacon chain the node at `api` serves, and its config:
 * - a known network's config is edgetrace's own (its forks, genesis and slot length): the node must
 *   name the same genesis validators root in `/eth/v1/beacon/genesis`, or it is refused naming both;
 * - else `configKeys` (a config.yaml's keys, `--beacon.config`) with the node's genesis;
 * - else the node's own `/eth/v1/config/spec` and genesis.
 * A config cannot make a forged update pass: every update must be signed by the committee the
 * checkpoint's state proves. It decides only which fork's domain signatures are checked under.
 */
export async function resolveBeaconChain(
  api: BeaconApi,
  { network, configKeys }: { network?: KnownNetwork | undefined; configKeys?: Record<string, string> | undefined } = {},
): Promise<BeaconChain> {
  const genesis = ((await api.get('/eth/v1/beacon/genesis')) as { data?: Record<string, unknown> } | null)?.data
  const nodeRoot = String(genesis?.genesis_validators_root ?? '').toLowerCase()
  if (!/^0x[0-9a-f]{64}$/.test(nodeRoot))
    throw new Error(`beacon API ${api.url}: no genesis validators root in /eth/v1/beacon/genesis`)
  if (network) {
    if (nodeRoot !== network.genesisValidatorsRoot)
      throw new BeaconChainMismatchError(
        `the beacon node ${api.url} serves another chain than ${network.name}: its genesis validators root is ${nodeRoot}, ${network.name}'s is ${network.genesisValidatorsRoot}`,
      )
    return {
      config: knownNetworkConfig(network),
      genesisTime: network.genesisTime,
      secondsPerSlot: network.secondsPerSlot,
      genesisValidatorsRoot: network.genesisValidatorsRoot,
      network,
    }
  }
  const keys = configKeys ?? ((await api.get('/eth/v1/config/spec')) as { data?: Record<string, unknown> } | null)?.data
  if (!keys) throw new Error(`beacon API ${api.url}: no config in /eth/v1/config/spec`)
  const config = parseBeaconConfig(keys, nodeRoot)
  const secondsPerSlot = secondsPerSlotOf(keys)
  const genesisTime = Number(genesis?.genesis_time)
  if (!(secondsPerSlot > 0))
    throw new Error(`${configKeys ? 'beacon config' : `beacon API ${api.url}`}: SECONDS_PER_SLOT missing`)
  if (!(genesisTime >= 0)) throw new Error(`beacon API ${api.url}: genesis_time missing`)
  return { config, genesisTime, secondsPerSlot, genesisValidatorsRoot: nodeRoot }
}
