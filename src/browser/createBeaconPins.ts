import { type UseStore, createStore, get, set } from 'idb-keyval'
import type { BeaconPin, BeaconPinStore } from '../chain/beacon/connectPinnedLightClient.js'

/** The IndexedDB database pins are kept in, one entry per beacon chain (shared by the origin's pages and workers). */
export const BEACON_PINS_DATABASE = 'edgetrace-beacon'

/**
 * The pinned checkpoints, in IndexedDB (keyed by genesis validators root: one pin per beacon chain),
 * or in memory where there is no IndexedDB. A store that fails is read as empty and written to no
 * further: a pin is an optimisation of later starts and a record of trust, never a reason to fail one.
 */
export function createBeaconPins(): BeaconPinStore {
  if (typeof indexedDB === 'undefined') {
    const memory = new Map<string, BeaconPin>()
    return {
      get: async (root) => memory.get(root.toLowerCase()),
      set: async (root, pin) => void memory.set(root.toLowerCase(), pin),
    }
  }
  let store: UseStore | undefined
  const db = () => (store ??= createStore(BEACON_PINS_DATABASE, 'pins'))
  return {
    get: (root) =>
      get<BeaconPin>(root.toLowerCase(), db()).then(
        // A pin stored before pinnedAt was ISO 8601 held ms since the epoch.
        (pin) =>
          pin && typeof pin.pinnedAt === 'number' ? { ...pin, pinnedAt: new Date(pin.pinnedAt).toISOString() } : pin,
        () => undefined,
      ),
    set: (root, pin) => set(root.toLowerCase(), pin, db()).catch(() => undefined),
  }
}
