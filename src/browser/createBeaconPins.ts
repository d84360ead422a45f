import { type UseStore, createStore, get, set } from 'idb-keyval'

/** What a browser remembers of one beacon chain: the checkpoint it trusts, and how far it verified. */
export type BeaconPin = {
  /** The trusted beacon block root: given in the config, or the beacon node's finalized root on first use. */
  checkpoint: string
  /** 'first use': taken from the beacon node's word the first time (nothing vouched for it); 'config': given. */
  source: 'first use' | 'config'
  /** When it was pinned (ms since the epoch). */
  pinnedAt: number
  /** The newest finalized block the light client verified from it: later starts bootstrap from here. */
  lastFinalized?: { root: string; slot: number }
}

export type BeaconPins = {
  /** The pin of the beacon chain with this genesis validators root (undefined: none, or no IndexedDB). */
  get(genesisValidatorsRoot: string): Promise<BeaconPin | undefined>
  set(genesisValidatorsRoot: string, pin: BeaconPin): Promise<void>
}

/** The IndexedDB database pins are kept in, one entry per beacon chain (shared by the origin's pages and workers). */
export const BEACON_PINS_DATABASE = 'edgetrace-beacon'

/**
 * The pinned checkpoints, in IndexedDB (keyed by genesis validators root: one pin per beacon chain),
 * or in memory where there is no IndexedDB. A store that fails is read as empty and written to no
 * further: a pin is an optimisation of later starts and a record of trust, never a reason to fail one.
 */
export function createBeaconPins(): BeaconPins {
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
    get: (root) => get<BeaconPin>(root.toLowerCase(), db()).catch(() => undefined),
    set: (root, pin) => set(root.toLowerCase(), pin, db()).catch(() => undefined),
  }
}
