import { MAX_CHECKPOINT_AGE_SECONDS, connectLightClient } from '../chain/beacon/connectLightClient.js'
import type { LightClient } from '../chain/beacon/createLightClient.js'
import type { KnownNetwork } from '../chain/beacon/knownNetworks.js'
import { type BeaconChain, resolveBeaconChain } from '../chain/beacon/resolveBeaconChain.js'
import { BaseError } from '../errors/base.js'
import { CheckpointTooOldError, LightClientVerificationError } from '../errors/consensus.js'
import { type BeaconApi, createBeaconApi } from '../upstream/createBeaconApi.js'
import type { BeaconPin, BeaconPinStore } from './createBeaconPinStore.js'

const ROOT = /^0x[0-9a-f]{64}$/

export type TrustedLightClientParameters = {
  /** `--beacon.upstream`. */
  url: string
  /** `--checkpoint ROOT`; without it, the pinned one, or the beacon node's finalized root on first use. */
  checkpoint?: string | undefined
  /** `--network` (or the execution chain id's): the config is edgetrace's own. */
  network?: KnownNetwork | undefined
  /** `--beacon.config FILE`'s keys. */
  configKeys?: Record<string, string> | undefined
  /** Where pins are kept (`--datadir`); none: nothing is remembered (the checkpoint, or the node's finalized root, each start). */
  pins?: BeaconPinStore | undefined
  /** `--checkpoint.force`: a checkpoint older than the weak-subjectivity bound is taken. */
  force?: boolean | undefined
  now?: () => number
  /** Hears what is not worth failing for (a pin that could not be written). */
  log?: ((line: string) => void) | undefined
}

/** How the start came to trust what it trusts, for the banner. */
export type TrustedStart = {
  checkpoint: string
  source: BeaconPin['source']
  /** When it was pinned (ISO 8601): this start's time when it was pinned now. */
  pinnedAt: string
  /** Pinned by this start (first use, or a --checkpoint that replaced another). */
  pinnedNow: boolean
  /** The pinned checkpoint a differing --checkpoint replaced. */
  replaced?: string | undefined
  /** The root the client bootstrapped from: the newest finalized one verified before, when not the checkpoint. */
  resumedFrom?: { root: string; slot: number } | undefined
  /** The pin's file, where pins are kept. */
  pinFile?: string | undefined
  chain: BeaconChain
}

/** The client (remembering what it verifies in the pin) and how the start came to trust it. */
export type TrustedLightClient = { client: LightClient; start: TrustedStart }

/**
 * A consensus light client of the beacon node at `url`, started from what is trusted for its chain
 * (keyed by genesis validators root):
 * - a `checkpoint` given that differs from the pinned one replaces the pin;
 * - without one, the pinned checkpoint; with no pin either, the beacon node's finalized root
 *   (`/eth/v1/beacon/headers/finalized`), trusted on first use as Helios and Lodestar do, and pinned;
 * - a pin the client verified past is resumed from its newest verified finalized root (stored as
 *   finality moves), not re-walked from the checkpoint; should the node no longer serve that
 *   bootstrap, the pinned checkpoint is tried. A check that fails is never retried from elsewhere.
 * A checkpoint (given, pinned or resumed) older than the weak-subjectivity bound is refused unless
 * `force`d.
 */
export async function connectTrustedLightClient({
  url,
  checkpoint,
  network,
  configKeys,
  pins,
  force = false,
  now = Date.now,
  log,
}: TrustedLightClientParameters): Promise<TrustedLightClient> {
  const api = createBeaconApi(url)
  const chain = await resolveBeaconChain(api, { network, configKeys })
  const key = chain.genesisValidatorsRoot
  const pinned = await pins?.get(key)
  const given = checkpoint?.toLowerCase()
  const at = new Date(now()).toISOString()

  let pin: BeaconPin
  let replaced: string | undefined
  if (given !== undefined && given !== pinned?.checkpoint) {
    pin = { checkpoint: given, source: 'flag', pinnedAt: at }
    replaced = pinned?.checkpoint
  } else if (pinned) pin = pinned
  else pin = { checkpoint: await finalizedRoot(api), source: 'first use', pinnedAt: at }
  const pinnedNow = pin !== pinned

  const roots = [...new Set([pin.lastFinalized?.root, pin.checkpoint].filter((r): r is string => r !== undefined))]
  let client: LightClient | undefined
  let bootstrappedFrom = pin.checkpoint
  for (const [i, root] of roots.entries()) {
    try {
      client = await connectLightClient(api, root, {
        chain,
        now,
        ...(force ? {} : { maxCheckpointAgeSeconds: MAX_CHECKPOINT_AGE_SECONDS }),
      })
      bootstrappedFrom = root
      break
    } catch (err) {
      // A beacon node that lies, or a checkpoint too old, is refused; one that no longer serves the newer bootstrap gets the checkpoint's.
      if (err instanceof LightClientVerificationError || err instanceof CheckpointTooOldError) throw err
      if (i < roots.length - 1) continue
      throw notServed(api, pin, pinnedNow, pins?.fileOf(key), err)
    }
  }
  const inner = client!

  // What was verified is remembered as it advances: at most once per finality change.
  let saved = Promise.resolve()
  const remember = () => {
    const finalized = inner.status().finalized
    if (!pins || finalized.beaconRoot === pin.lastFinalized?.root) return
    pin = { ...pin, lastFinalized: { root: finalized.beaconRoot, slot: finalized.slot } }
    const next = pin
    saved = saved
      .then(() => pins.set(key, next))
      .catch((err: unknown) => log?.(`beacon: the pin ${pins.fileOf(key)} was not written: ${(err as Error).message}`))
  }
  if (pins) {
    // The pin is written before the server answers: a start that cannot keep what it trusts says so.
    const finalized = inner.status().finalized
    pin = { ...pin, lastFinalized: { root: finalized.beaconRoot, slot: finalized.slot } }
    await pins.set(key, pin).catch((err: unknown) => {
      throw new BaseError(
        `beacon: cannot keep the pinned checkpoint in ${pins.fileOf(key)}: ${(err as Error).message}`,
        {
          metaMessages: ['give another --datadir DIR'],
        },
      )
    })
  }

  // Delegates to the client, remembering what it verified after each sync.
  const tracked: LightClient = Object.assign(Object.create(inner) as LightClient, {
    async sync(signal?: AbortSignal) {
      await inner.sync(signal)
      remember()
    },
  })
  return {
    client: tracked,
    start: {
      checkpoint: pin.checkpoint,
      source: pin.source,
      pinnedAt: pin.pinnedAt,
      pinnedNow,
      replaced,
      resumedFrom:
        bootstrappedFrom !== pin.checkpoint && pinned?.lastFinalized?.root === bootstrappedFrom
          ? pinned.lastFinalized
          : undefined,
      pinFile: pins?.fileOf(key),
      chain,
    },
  }
}

/** The beacon node's finalized block root: the checkpoint trusted on first use. */
async function finalizedRoot(api: BeaconApi): Promise<string> {
  const answer = (await api.get('/eth/v1/beacon/headers/finalized')) as { data?: { root?: unknown } } | null
  const root = String(answer?.data?.root ?? '').toLowerCase()
  if (!ROOT.test(root))
    throw new Error(`beacon API ${api.url}: /eth/v1/beacon/headers/finalized gave no block root to trust on first use`)
  return root
}

/** The start's error when the beacon node serves no bootstrap for what is trusted: which root, whence, what to do. */
function notServed(api: BeaconApi, pin: BeaconPin, pinnedNow: boolean, file: string | undefined, cause: unknown) {
  const whence = pinnedNow
    ? pin.source === 'flag'
      ? 'given with --checkpoint'
      : "the beacon node's own finalized root"
    : `pinned since ${pin.pinnedAt}${file ? ` in ${file}` : ''}${pin.lastFinalized ? `, last verified finalized root ${pin.lastFinalized.root} (slot ${pin.lastFinalized.slot})` : ''}`
  return new BaseError(
    `the beacon node ${api.url} serves no light-client bootstrap for the checkpoint ${pin.checkpoint} (${whence}): ${(cause as Error).message}`,
    {
      metaMessages: [
        pinnedNow
          ? 'give a recent finalized beacon block root with --checkpoint ROOT (beacon nodes keep bootstraps of recent blocks only)'
          : `beacon nodes keep bootstraps of recent blocks only: give a recent finalized root with --checkpoint ROOT (it replaces the pin)${file ? `, or remove ${file} to trust the node's finalized root anew` : ''}`,
      ],
    },
  )
}
