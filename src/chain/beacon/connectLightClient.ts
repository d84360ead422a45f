import { hexToBytes } from '@ethereumjs/util'
import type { BeaconApi } from '../../upstream/createBeaconApi.js'
import { parseBeaconConfig } from './beaconConfig.js'
import { type LightClient, createLightClient } from './createLightClient.js'

/**
 * A light client of the beacon chain behind `api`, bootstrapped from `checkpoint` (a beacon block
 * root one trusts) and synced to its head. The chain's fork schedule, preset and genesis come from
 * the node (`/eth/v1/config/spec`, `/eth/v1/beacon/genesis`): they cannot make a forged update pass,
 * since the committee that must sign every update is the one the checkpoint's state proves.
 */
export async function connectLightClient(
  api: BeaconApi,
  checkpoint: string,
  { now }: { now?: () => number } = {},
): Promise<LightClient> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(checkpoint))
    throw new Error(`the checkpoint must be a beacon block root (0x and 64 hex digits), got ${checkpoint}`)
  const spec = ((await api.get('/eth/v1/config/spec')) as { data?: Record<string, unknown> }).data
  const genesis = ((await api.get('/eth/v1/beacon/genesis')) as { data?: Record<string, unknown> }).data
  if (!spec || !genesis) throw new Error(`beacon API ${api.url}: no config or genesis in its answers`)
  const config = parseBeaconConfig(spec, String(genesis.genesis_validators_root))
  const secondsPerSlot = Number(spec.SECONDS_PER_SLOT)
  const genesisTime = Number(genesis.genesis_time)
  if (!(secondsPerSlot > 0) || !(genesisTime >= 0))
    throw new Error(`beacon API ${api.url}: SECONDS_PER_SLOT or genesis_time missing`)
  const client = createLightClient({
    api,
    config,
    checkpoint: hexToBytes(checkpoint as `0x${string}`),
    genesisTime,
    secondsPerSlot,
    ...(now ? { now } : {}),
  })
  await client.sync()
  return client
}
