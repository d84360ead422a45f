import { BaseError } from '../../errors/base.js'
import { CheckpointTooOldError, LightClientVerificationError } from '../../errors/consensus.js'
import { type BeaconApi, createBeaconApi } from '../../upstream/createBeaconApi.js'
import { redactUrl } from '../../utils/redactUrl.js'
import { MAX_CHECKPOINT_AGE_SECONDS, connectLightClient } from './connectLightClient.js'
import { createConsensusAnchor } from './createConsensusAnchor.js'
import type { LightClient } from './createLightClient.js'
import type { KnownNetwork } from './knownNetworks.js'
import { type BeaconChain, resolveBeaconChain } from './resolveBeaconChain.js'

const ROOT = /^0x[0-9a-f]{64}$/

/** What is remembered of one beacon chain: the checkpoint trusted, and how far the light client verified from it. */
export type BeaconPin = {
  /** The trusted beacon block root. */
  checkpoint: string
  /** When it was pinned (ISO 8601). */
  pinnedAt: string
  /**
   * 'first use': the beacon node's own finalized root, nothing vouched for it; else given: 'flag'
   * (the Node server's --checkpoint), 'config' (the browser's config.beacon.checkpoint).
   */
  source: 'first use' | 'flag' | 'config'
  /** The newest finalized block the light client verified from it: later starts bootstrap from here. */
  lastFinalized?: { root: string; slot: number } | undefined
}

/** Where pins are kept, one per beacon chain by genesis validators root (a file per chain in Node, IndexedDB in the browser). */
export type BeaconPinStore = {
  get(genesisValidatorsRoot: string): Promise<BeaconPin | undefined>
  /** Writes the pin; an error says where and what to do (the start that cannot keep its pin stops with it). */
  set(genesisValidatorsRoot: string, pin: BeaconPin): Promise<void>
  /** The file a chain's pin is kept in, where pins are files: named in messages. */
  fileOf?(genesisValidatorsRoot: string): string
}

export type PinnedLightClientParameters = {
  /** The beacon node's Beacon API. */
  url: string
  /** The beacon block root given to trust; without it, the pinned one, or the beacon node's finalized root on first use. */
  checkpoint?: string | undefined
  /** How a given checkpoint is marked in its pin: 'flag' (Node's --checkpoint) or 'config' (the browser's). */
  given: 'flag' | 'config'
  /** A known network (by `--network` or the execution chain id): the config is edgetrace's own. */
  network?: KnownNetwork | undefined
  /** A consensus specs config.yaml's keys (`--beacon.config FILE`). */
  configKeys?: Record<string, string> | undefined
  /** Where pins are kept; none: nothing is remembered (the checkpoint, or the node's finalized root, each start). */
  pins?: BeaconPinStore | undefined
  /** Take a checkpoint older than the weak-subjectivity bound. */
  force?: boolean | undefined
  /** The longest one sync a request starts is waited for, ms (the request's own timeout). */
  syncTimeoutMs?: number | undefined
  now?: () => number
  /** Hears what is not worth failing for (a pin that could not be written after the start). */
  log?: ((line: string) => void) | undefined
  /**
   * The platform's words for the start's errors: they name the Node server's flags (`--checkpoint
   * ROOT`, `--checkpoint.force`); the browser renames them to its config fields. Default: as they are.
   */
  rename?: ((err: unknown) => unknown) | undefined
}

/** How the start came to trust what it trusts (the Node server's banner). */
export type PinnedStart = {
  checkpoint: string
  source: BeaconPin['source']
  /** When it was pinned (ISO 8601): this start's time when it was pinned now. */
  pinnedAt: string
  /** Pinned by this start (first use, or a given checkpoint that replaced another). */
  pinnedNow: boolean
  /** The pinned checkpoint a differing given one replaced. */
  replaced?: string | undefined
  /** The root the client bootstrapped from: the newest finalized one verified before, when not the checkpoint. */
  resumedFrom?: { root: string; slot: number } | undefined
  /** The pin's file, where pins are files. */
  pinFile?: string | undefined
  chain: BeaconChain
}

export type PinnedLightClient = {
  /** The client, remembering in the pin what it verifies as it advances. */
  client: LightClient
  /** The header store's anchor (tags and numbers resolve through it); its report says `trustedOnFirstUse`. */
  anchor: ReturnType<typeof createConsensusAnchor>
  start: PinnedStart
}

/**
 * A consensus light client of the beacon node at `url`, started from what is trusted for its chain
 * (the pin keyed by genesis validators root), the one flow of the Node server and the browser:
 * - a `checkpoint` given that differs from the pinned one replaces the pin;
 * - without one, the pinned checkpoint; with no pin either, the beacon node's finalized root
 *   (`/eth/v1/beacon/headers/finalized`), trusted on first use as Helios and Lodestar do, and pinned;
 * - a pin the client verified past is resumed from its newest verified finalized root (stored as
 *   finality moves), not re-walked from the checkpoint; should the node no longer serve that
 *   bootstrap, the pinned checkpoint is tried. A check that fails (a lie, a root too old) is never
 *   retried from elsewhere.
 * A root (given, pinned or resumed) older than the weak-subjectivity bound is refused unless
 * `force`d. The pin is written before the start returns: a store that cannot keep it stops the start.
 */
export async function connectPinnedLightClient(parameters: PinnedLightClientParameters): Promise<PinnedLightClient> {
  try {
    return await connect(parameters)
  } catch (err) {
    throw parameters.rename ? parameters.rename(err) : err
  }
}

async function connect({
  url,
  checkpoint,
  given,
  network,
  configKeys,
  pins,
  force = false,
  syncTimeoutMs,
  now = Date.now,
  log,
}: PinnedLightClientParameters): Promise<PinnedLightClient> {
  const api = createBeaconApi(url)
  const chain = await resolveBeaconChain(api, { network, configKeys })
  const key = chain.genesisValidatorsRoot
  const pinFile = pins?.fileOf?.(key)
  const pinned = await pins?.get(key)
  const wanted = checkpoint?.toLowerCase()
  const at = new Date(now()).toISOString()

  let pin: BeaconPin
  let replaced: string | undefined
  if (wanted !== undefined && wanted !== pinned?.checkpoint) {
    pin = { checkpoint: wanted, source: given, pinnedAt: at }
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
      // A beacon node that lies, or a root too old, is refused; one that no longer serves the newer bootstrap gets the checkpoint's.
      if (err instanceof LightClientVerificationError || err instanceof CheckpointTooOldError) throw err
      if (i < roots.length - 1) continue
      throw notServed(api, pin, pinnedNow, pinFile, err)
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
      .catch((err: unknown) =>
        log?.(
          `beacon: the pin was not written: ${err instanceof BaseError ? err.shortMessage : (err as Error).message}`,
        ),
      )
  }
  if (pins) {
    // Written before the start answers anything: a start that cannot keep what it trusts says so.
    const finalized = inner.status().finalized
    pin = { ...pin, lastFinalized: { root: finalized.beaconRoot, slot: finalized.slot } }
    await pins.set(key, pin)
  }

  // Delegates to the client, remembering what it verified after each sync.
  const tracked: LightClient = {
    get store() {
      return inner.store
    },
    currentSlot: () => inner.currentSlot(),
    status: () => inner.status(),
    async sync(signal) {
      await inner.sync(signal)
      remember()
      // Written before the answer that saw it: a page closed (or a server stopped) right after still finds it.
      await saved
    },
  }
  const consensus = createConsensusAnchor(tracked, {
    checkpoint: pin.checkpoint,
    beaconNode: redactUrl(url),
    syncTimeoutMs,
  })
  const anchor: PinnedLightClient['anchor'] = {
    ...consensus,
    // edgetrace_trust says whether the checkpoint is the beacon node's own word.
    report: () => ({ ...consensus.report(), trustedOnFirstUse: pin.source === 'first use' }),
  }
  return {
    client: tracked,
    anchor,
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
      pinFile,
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
    ? pin.source === 'first use'
      ? "the beacon node's own finalized root"
      : 'given with --checkpoint'
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
