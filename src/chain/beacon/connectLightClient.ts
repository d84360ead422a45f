import { hexToBytes } from '@ethereumjs/util'
import { CheckpointTooOldError } from '../../errors/consensus.js'
import type { BeaconApi } from '../../upstream/createBeaconApi.js'
import { type LightClient, createLightClient } from './createLightClient.js'
import { type BeaconChain, resolveBeaconChain } from './resolveBeaconChain.js'

/**
 * The weak-subjectivity bound: a checkpoint older than this is refused unless forced. Helios' fixed
 * maximum age, 14 days (a16z/helios ethereum/src/config/networks.rs, `max_checkpoint_age: 1_209_600`
 * on every network, checked on the bootstrap header's slot), rather than the specs'
 * compute_weak_subjectivity_period, whose validator count a light client cannot prove.
 */
export const MAX_CHECKPOINT_AGE_SECONDS = 1_209_600

/**
 * A light client of the beacon chain behind `api`, bootstrapped from `checkpoint` (a beacon block
 * root one trusts) and synced to its head. The chain's fork schedule, preset and genesis are
 * `chain`'s, else the node's (`/eth/v1/config/spec`, `/eth/v1/beacon/genesis`): they cannot make a
 * forged update pass, since the committee that must sign every update is the one the checkpoint's
 * state proves. With `maxCheckpointAgeSeconds`, a checkpoint whose slot is older is refused before
 * any update is followed (CheckpointTooOldError, its age said).
 */
export async function connectLightClient(
  api: BeaconApi,
  checkpoint: string,
  {
    now,
    chain,
    maxCheckpointAgeSeconds,
  }: { now?: () => number; chain?: BeaconChain | undefined; maxCheckpointAgeSeconds?: number | undefined } = {},
): Promise<LightClient> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(checkpoint))
    throw new Error(`the checkpoint must be a beacon block root (0x and 64 hex digits), got ${checkpoint}`)
  const { config, genesisTime, secondsPerSlot } = chain ?? (await resolveBeaconChain(api))
  const clock = now ?? Date.now
  // The bootstrap's slot is looked at before the store takes it: a slot made up to pass this check
  // fails the store's own (the header must hash to the checkpoint).
  const checked: BeaconApi =
    maxCheckpointAgeSeconds === undefined
      ? api
      : {
          url: api.url,
          async get(path, signal) {
            const answer = await api.get(path, signal)
            if (path.startsWith('/eth/v1/beacon/light_client/bootstrap/')) {
              const slot = Number(
                (answer as { data?: { header?: { beacon?: { slot?: unknown } } } } | null)?.data?.header?.beacon?.slot,
              )
              const age = Math.floor(clock() / 1000 - (genesisTime + slot * secondsPerSlot))
              if (Number.isSafeInteger(slot) && age > maxCheckpointAgeSeconds)
                throw new CheckpointTooOldError(
                  `the checkpoint ${checkpoint} (slot ${slot}) is ${formatAge(age)} old, beyond the weak-subjectivity period (${formatAge(maxCheckpointAgeSeconds)}): validators that have left since could have signed another chain from it. Give a recent finalized root (--checkpoint ROOT), or --checkpoint.force to take this one anyway`,
                  { checkpoint, slot: `0x${slot.toString(16)}`, ageSeconds: age },
                )
            }
            return answer
          },
        }
  const client = createLightClient({
    api: checked,
    config,
    checkpoint: hexToBytes(checkpoint as `0x${string}`),
    genesisTime,
    secondsPerSlot,
    ...(now ? { now } : {}),
  })
  await client.sync()
  return client
}

/** An age in days (and hours under two days). */
function formatAge(seconds: number): string {
  const days = seconds / 86_400
  return days >= 2 ? `${Math.floor(days)} days` : `${Math.floor(seconds / 3600)} hours`
}
