import type { Hex } from '../../types/hex.js'
import type { ExecutionAnchor } from '../createHeaderStore.js'
import type { LightClient } from './createLightClient.js'

/**
 * The light client as the header store's anchor: `latest` is the optimistic head's execution block,
 * `safe` and `finalized` the finalized one's. The client is brought up to date when its head is a
 * slot old (one sync at a time, shared by the requests that wait for it); a sync that fails fails
 * the request, naming what did not verify — an old head is never passed off as the current one.
 */
export function createConsensusAnchor(
  client: LightClient,
  { checkpoint, beaconNode }: { checkpoint: string; beaconNode: string },
): ExecutionAnchor & {
  /** Brings the client up to date now. */
  refresh(): Promise<void>
} {
  let syncedAtSlot = -1
  let inFlight: Promise<void> | undefined
  const refresh = () => {
    inFlight ??= client
      .sync()
      .then(() => {
        syncedAtSlot = client.currentSlot()
      })
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
