import type { GethGenesis } from '@ethereumjs/common'
import type { KnownNetworkName } from '../chain/beacon/knownNetworks.js'
import type { Upstream } from '../upstream/types.js'
import { beaconNetworkFor } from './beaconNetworkFor.js'
import { type PinnedLightClient, connectPinnedLightClient } from '../chain/beacon/connectPinnedLightClient.js'
import { createBeaconPinStore } from './createBeaconPinStore.js'

/** Trust mode consensus as the server starts it (`--beacon.upstream` and the flags that go with it). */
export type ConsensusParameters = {
  /** `--beacon.upstream`. */
  url: string
  /** `--checkpoint ROOT`; without it the pinned root, or the beacon node's finalized root on first use. */
  checkpoint?: string | undefined
  /** `--network`; default: the execution chain id's known network, if any. */
  network?: KnownNetworkName | undefined
  /** `--beacon.config FILE`'s keys (consensus specs config.yaml). */
  configKeys?: Record<string, string> | undefined
  /** `--datadir`: where pins are kept; none: nothing is pinned (each start trusts anew). */
  datadir?: string | undefined
  /** `--checkpoint.force`: past the weak-subjectivity bound. */
  force?: boolean | undefined
}

/**
 * The light client a consensus start resolves blocks through: which beacon chain the execution
 * upstream's chain id names (a Bor chain, a `--network` of another chain id, refused by name), then
 * the checkpoint given, pinned in `--datadir` or trusted on first use (connectPinnedLightClient, the
 * browser's flow too; its errors name the flags).
 */
export async function startConsensus(
  beacon: ConsensusParameters,
  {
    upstream,
    genesis,
    log,
    syncTimeoutMs,
  }: {
    upstream: Upstream
    genesis?: GethGenesis | undefined
    log?: ((line: string) => void) | undefined
    /** `--rpc.evmtimeout`: a sync a request starts is given up with the request. */
    syncTimeoutMs?: number | undefined
  },
): Promise<PinnedLightClient> {
  const chainId = BigInt(await upstream.request<string>('eth_chainId', []))
  const network = beaconNetworkFor({
    chainId,
    network: beacon.network,
    configFile: beacon.configKeys !== undefined,
    genesis,
  })
  return connectPinnedLightClient({
    url: beacon.url,
    checkpoint: beacon.checkpoint,
    given: 'flag',
    network,
    configKeys: beacon.configKeys,
    pins: beacon.datadir !== undefined ? createBeaconPinStore(beacon.datadir) : undefined,
    force: beacon.force,
    syncTimeoutMs,
    log,
  })
}
