import { UpstreamUnavailableError } from '../../errors/upstream.js'
import type { Hex } from '../../types/hex.js'
import type { ExecutionAnchor } from '../createHeaderStore.js'
import type { LightClient } from './createLightClient.js'

/**
 * The light client as the header store's anchor: `latest` is the optimistic head's execution block,
 * `safe` and `finalized` the finalized one's. The client is brought up to date when its head is a
 * slot old (one sync at a time, shared by the requests that wait for it); a sync that fails fails
 * the request, naming what did not verify — an old head is never passed off as the current one.
 * A sync is given up (its Beacon API calls aborted) `syncTimeoutMs` after it started: the request
 * that started it has timed out by then (its deadline, as long, was armed first), so a beacon node
 * that never answers holds no sync longer than a request may take, and the next request starts afresh.
 */
export function createConsensusAnchor(
  client: LightClient,
  {
    checkpoint,
    beaconNode,
    syncTimeoutMs,
  }: {
    checkpoint: string
    beaconNode: string
    /** The longest one sync is waited for, ms (the Node server passes `--rpc.evmtimeout`); default none. */
    syncTimeoutMs?: number | undefined
  },
): ExecutionAnchor & {
  /** Brings the client up to date now. */
  refresh(): Promise<void>
} {
  let syncedAtSlot = -1
  let inFlight: Promise<void> | undefined
  const refresh = () => {
    if (inFlight) return inFlight
    const bound = syncTimeoutMs === undefined ? undefined : AbortSignal.timeout(syncTimeoutMs)
    inFlight = client
      .sync(bound)
      .then(
        () => {
          syncedAtSlot = client.currentSlot()
        },
        (err: unknown) => {
          if (!bound?.aborted) throw err
          throw new UpstreamUnavailableError(
            beaconNode,
            `the beacon node gave no light-client update within ${syncTimeoutMs} ms`,
          )
        },
      )
      .finally(() => {
        inFlight = undefined
      })
    return inFlight
  }
  return {
    refresh,
    report() {
      const status = client.status()
      return { checkpoint, beaconNode, ...status }
    },
    async head(tag) {
      if (!client.store || client.currentSlot() > syncedAtSlot) await refresh()
      const status = client.status()
      const header = tag === 'latest' ? status.optimistic : status.finalized
      return { number: header.blockNumber, hash: header.blockHash as Hex }
    },
  }
}
