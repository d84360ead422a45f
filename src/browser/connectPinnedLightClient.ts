import { MAX_CHECKPOINT_AGE_SECONDS, connectLightClient } from '../chain/beacon/connectLightClient.js'
import { createConsensusAnchor } from '../chain/beacon/createConsensusAnchor.js'
import type { LightClient } from '../chain/beacon/createLightClient.js'
import type { KnownNetwork } from '../chain/beacon/knownNetworks.js'
import { BeaconChainMismatchError, resolveBeaconChain } from '../chain/beacon/resolveBeaconChain.js'
import type { ExecutionAnchor } from '../chain/createHeaderStore.js'
import { CheckpointTooOldError, LightClientVerificationError } from '../errors/consensus.js'
import { type BeaconApi, createBeaconApi } from '../upstream/createBeaconApi.js'
import { redactUrl } from '../utils/redactUrl.js'
import type { BeaconPin, BeaconPins } from './createBeaconPins.js'

const ROOT = /^0x[0-9a-f]{64}$/

export type PinnedLightClient = {
  /** The header store's anchor (tags and numbers resolve through it); edgetrace_trust reports its pin. */
  anchor: ExecutionAnchor
  client: LightClient
  /** The beacon chain's pin as it stands after the start. */
  pin(): BeaconPin
  /** The root the client bootstrapped from this time: the pin's last verified finalized root, or its checkpoint. */
  bootstrappedFrom: string
}

/**
 * A light client of the beacon node at `url`, started from what this browser trusts for that beacon
 * chain (by genesis validators root):
 * - a `checkpoint` given that differs from the pinned one replaces the pin;
 * - without one, the pinned checkpoint; with no pin either, the beacon node's finalized root,
 *   trusted on first use (as Helios and Lodestar do) and pinned;
 * - a pin the client verified past is resumed from its newest verified finalized root (stored as the
 *   client advances), not re-walked from the checkpoint. Should the beacon node no longer serve that
 *   bootstrap, the pinned checkpoint is tried; a check that fails is never retried from elsewhere.
 * A known network's config is edgetrace's own (a beacon node of another chain is refused, naming
 * both genesis validators roots); a root older than the weak-subjectivity bound (Helios' 14 days,
 * see connectLightClient) is refused unless `force`.
 */
export async function connectPinnedLightClient(
  { url, checkpoint, force }: { url: string; checkpoint?: string | undefined; force?: boolean | undefined },
  pins: BeaconPins,
  {
    network,
    syncTimeoutMs,
  }: {
    network?: KnownNetwork | undefined
    /** The longest one sync a request starts is waited for, ms (the request's own timeout). */
    syncTimeoutMs?: number | undefined
  } = {},
): Promise<PinnedLightClient> {
  const api = createBeaconApi(url)
  const beaconChain = await resolveBeaconChain(api, { network }).catch((err: unknown) => {
    throw err instanceof BeaconChainMismatchError
      ? new BeaconChainMismatchError(`config.beacon.url: ${err.shortMessage}`)
      : err
  })
  const chain = beaconChain.genesisValidatorsRoot
  const pinned = await pins.get(chain)
  const given = checkpoint?.toLowerCase()

  let pin: BeaconPin
  if (given !== undefined && given !== pinned?.checkpoint)
    pin = { checkpoint: given, source: 'config', pinnedAt: Date.now() }
  else if (pinned) pin = pinned
  else pin = { checkpoint: await finalizedRoot(api), source: 'first use', pinnedAt: Date.now() }

  const roots = [...new Set([pin.lastFinalized?.root, pin.checkpoint].filter((r): r is string => r !== undefined))]
  let client: LightClient | undefined
  let bootstrappedFrom = pin.checkpoint
  for (const [i, root] of roots.entries()) {
    try {
      client = await connectLightClient(api, root, {
        chain: beaconChain,
        ...(force ? {} : { maxCheckpointAgeSeconds: MAX_CHECKPOINT_AGE_SECONDS }),
      })
      bootstrappedFrom = root
      break
    } catch (err) {
      // A beacon node that lies is refused; one that no longer serves the newer bootstrap gets the checkpoint's.
      if (err instanceof LightClientVerificationError || i === roots.length - 1) throw inBrowserTerms(err)
    }
  }
  const inner = client!

  // What was verified is remembered as it advances (at most once per finality change).
  let saved = Promise.resolve()
  const remember = () => {
    const finalized = inner.status().finalized
    if (finalized.beaconRoot === pin.lastFinalized?.root) return
    pin = { ...pin, lastFinalized: { root: finalized.beaconRoot, slot: finalized.slot } }
    const next = pin
    saved = saved.then(() => pins.set(chain, next))
  }
  remember()
  await saved

  const tracked: LightClient = {
    get store() {
      return inner.store
    },
    currentSlot: () => inner.currentSlot(),
    status: () => inner.status(),
    async sync(signal) {
      await inner.sync(signal)
      remember()
      // Written before the answer that saw it: a page closed right after still finds it.
      await saved
    },
  }
  const consensus = createConsensusAnchor(tracked, {
    checkpoint: pin.checkpoint,
    beaconNode: redactUrl(url),
    syncTimeoutMs,
  })
  return {
    anchor: {
      ...consensus,
      report: () => ({ ...consensus.report(), trustedOnFirstUse: pin.source === 'first use' }),
    },
    client: tracked,
    pin: () => pin,
    bootstrappedFrom,
  }
}

/** A checkpoint too old, said with the config's fields (the Node server's message names its flags). */
function inBrowserTerms(err: unknown): unknown {
  if (!(err instanceof CheckpointTooOldError) || !err.data) return err
  return new CheckpointTooOldError(
    err.shortMessage
      .replace('--checkpoint ROOT', 'config.beacon.checkpoint')
      .replace('--checkpoint.force', 'config.beacon.force: true'),
    err.data,
  )
}

/** The beacon node's finalized block root (`/eth/v1/beacon/headers/finalized`): the checkpoint trusted on first use. */
async function finalizedRoot(api: BeaconApi): Promise<string> {
  const answer = (await api.get('/eth/v1/beacon/headers/finalized')) as { data?: { root?: unknown } }
  const root = String(answer?.data?.root ?? '').toLowerCase()
  if (!ROOT.test(root))
    throw new Error(`beacon API ${api.url}: /eth/v1/beacon/headers/finalized gave no block root to trust on first use`)
  return root
}
