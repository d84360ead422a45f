import { createIdbStore } from '../../src/browser/createIdbStore.js'
import { type PersistentStore, createPersistentBacking } from '../../src/state/createPersistentBacking.js'
import type { PersistentCodec } from '../../src/state/createPersistentCodec.js'
import { cacheKeyKind } from '../../src/utils/cacheKeys.js'
import { type LruCache, createLruCache } from '../../src/utils/createLruCache.js'

/** The page's IndexedDB database of Sourcify answers: one per origin (createIdbStore adds its `-index`). */
export const SOURCIFY_DATABASE = 'edgetrace-explorer-sourcify'

const MiB = 1024 * 1024

/**
 * What the page keeps: a Sourcify answer's text by (chain id, code hash), nothing else. It is read into
 * a contract and matched to the code that ran every time it is used (createSourcifyLookup), so what
 * comes back from the store is never trusted.
 */
const sourcifyCodec: PersistentCodec = {
  encode: (key, value) => (cacheKeyKind(key) === 'sourcify' && typeof value === 'string' ? value : undefined),
  decode: (key, stored) => (cacheKeyKind(key) === 'sourcify' && typeof stored === 'string' ? stored : undefined),
}

export type CreateSourcifyCacheParameters = {
  /** The persistent store (default: IndexedDB, {@link SOURCIFY_DATABASE}, 64 MiB). */
  open?: (() => Promise<PersistentStore>) | undefined
  /** The memory tier's budget, bytes (default 32 MiB). */
  memoryBytes?: number | undefined
  /** Where the fall back to memory is said, once (default `console.warn`). */
  warn?: ((line: string) => void) | undefined
}

/**
 * The explorer page's cache of Sourcify answers (for createSourcifyLookup): in memory, and in
 * IndexedDB beneath it, so a reloaded page does not ask the (rate-limited) Sourcify server again for
 * code it was answered for. Where the store cannot be opened (private mode, no IndexedDB) or fails
 * later (quota), the page goes on in memory only and says so once; the cache never fails a lookup.
 */
export async function createSourcifyCache({
  open = () => createIdbStore({ name: SOURCIFY_DATABASE, budgetBytes: 64 * MiB }),
  memoryBytes = 32 * MiB,
  warn = (line) => console.warn(line),
}: CreateSourcifyCacheParameters = {}): Promise<LruCache> {
  let failed = false
  const fallBack = (err: unknown) => {
    if (failed) return
    failed = true
    warn(`sourcify: answers are kept in memory only, for this page (IndexedDB: ${(err as Error)?.message ?? err})`)
  }
  let store: PersistentStore
  try {
    store = await open()
  } catch (err) {
    fallBack(err)
    return createLruCache(memoryBytes)
  }
  // After its first failure the store is left alone: reads find nothing, writes are dropped.
  const guarded: PersistentStore = {
    tier: store.tier ?? 'indexeddb',
    accepts: (key) => cacheKeyKind(key) === 'sourcify',
    getMany: (keys) =>
      failed
        ? Promise.resolve(keys.map(() => undefined))
        : store.getMany(keys).catch((err: unknown) => {
            fallBack(err)
            return keys.map(() => undefined)
          }),
    setMany: (entries) => (failed ? Promise.resolve() : store.setMany(entries).catch(fallBack)),
    clear: () => store.clear().catch(fallBack),
    stats: () => store.stats(),
    flush: () => (failed ? Promise.resolve() : store.flush().catch(fallBack)),
  }
  return createLruCache(memoryBytes, createPersistentBacking({ store: guarded, codec: sourcifyCodec }))
}
