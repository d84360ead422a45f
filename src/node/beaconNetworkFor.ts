import type { GethGenesis } from '@ethereumjs/common'
import {
  KNOWN_NETWORKS,
  type KnownNetwork,
  type KnownNetworkName,
  knownNetworkOfChainId,
} from '../chain/beacon/knownNetworks.js'
import { KNOWN_BOR_CHAINS } from '../chain/bor/borChains.js'
import { CliError } from './parseCliArgs.js'

/**
 * The known beacon chain a consensus start follows: `--network`'s, else the execution chain id's
 * (undefined: another chain, whose config is the beacon node's or `--beacon.config`'s). Refused,
 * naming the flags: a `--network` whose execution chain is not the upstream's, `--beacon.config`
 * for a known network, and a Bor chain — its blocks are sealed by its own validator set, not by
 * Ethereum's beacon chain (its trust modes are checkpoint and upstream).
 */
export function beaconNetworkFor({
  chainId,
  network,
  configFile,
  genesis,
}: {
  chainId: bigint
  network?: KnownNetworkName | undefined
  configFile?: boolean | undefined
  genesis?: GethGenesis | undefined
}): KnownNetwork | undefined {
  const bor =
    KNOWN_BOR_CHAINS.find((c) => BigInt(c.chainId) === chainId)?.name ??
    ((genesis?.config as Record<string, unknown> | undefined)?.bor !== undefined ? `Bor chain ${chainId}` : undefined)
  if (bor)
    throw new CliError(
      `trust mode consensus on ${bor} (chain id ${chainId}): a Bor chain's blocks are sealed by its validator set, not by Ethereum's beacon chain — drop --beacon.upstream, and give --checkpoint HASH (trust mode checkpoint) or nothing (upstream)`,
    )
  const known = network ? KNOWN_NETWORKS[network] : knownNetworkOfChainId(chainId)
  if (network && known && known.chainId !== chainId)
    throw new CliError(
      `--network ${network} is execution chain ${known.chainId}, but the upstream is chain ${chainId}: give the upstream of ${network}, or the --network of chain ${chainId}`,
    )
  if (known && configFile)
    throw new CliError(
      `--beacon.config for ${known.name} (${network ? '--network' : `chain id ${chainId}`}): a known network's config is edgetrace's own; --beacon.config is for other beacon chains`,
    )
  return known
}
