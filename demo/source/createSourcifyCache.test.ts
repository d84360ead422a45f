import { describe, expect, it } from 'vitest'
import type { PersistentStore } from '../../src/state/createPersistentBacking.js'
import { cacheKeys } from '../../src/utils/cacheKeys.js'
import { createSourcifyCache } from './createSourcifyCache.js'

const key = cacheKeys.sourcify(1n, `0x${'ab'.repeat(32)}`)
const answer = '{"match":"match"}'

/** A store in a Map (what IndexedDB keeps across a reload), counting what it was asked. */
function mapStore(fail?: Error): PersistentStore & { saved: Map<string, unknown>; calls: number } {
  const saved = new Map<string, unknown>()
  const store = {
    saved,
    calls: 0,
    getMany: async (keys: readonly string[]) => {
      store.calls++
      if (fail) throw fail
      return keys.map((k) => saved.get(k))
    },
    setMany: async (entries: readonly (readonly [string, unknown, number])[]) => {
      store.calls++
      if (fail) throw fail
      for (const [k, v] of entries) saved.set(k, v)
    },
    clear: async () => saved.clear(),
    stats: () => ({ entries: saved.size, bytes: 0, budget: 0, reads: 0, hits: 0, writes: 0, evictions: 0 }),
    flush: async () => {},
  }
  return store
}

/** Until the backing's writes (one per burst, after a timer) have reached the store. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10))

describe('createSourcifyCache', () => {
  it('keeps an answer’s text in the store, and a cache opened later (a reloaded page) gets it back', async () => {
    const store = mapStore()
    const first = await createSourcifyCache({ open: async () => store, warn: () => expect.fail('no warning') })
    first.set(key, answer, key.length + answer.length * 2)
    // Only Sourcify answers, and only their text, are kept.
    first.set(cacheKeys.code(`0x${'cd'.repeat(32)}`), new Uint8Array([1]), 40)
    first.set(cacheKeys.sourcify(1n, `0x${'ef'.repeat(32)}`), { not: 'text' }, 40)
    await settle()
    expect([...store.saved]).toEqual([[key, answer]])

    const later = await createSourcifyCache({ open: async () => store })
    expect(later.get(key)).toBeUndefined()
    await later.restore?.([key])
    expect(later.get(key)).toBe(answer)
  })

  it('where the store cannot be opened, keeps answers in memory and says so once', async () => {
    const lines: string[] = []
    const cache = await createSourcifyCache({
      open: () => Promise.reject(new Error('private mode')),
      warn: (line) => lines.push(line),
    })
    expect(cache.restore).toBeUndefined()
    cache.set(key, answer, 100)
    expect(cache.get(key)).toBe(answer)
    expect(lines).toEqual(['sourcify: answers are kept in memory only, for this page (IndexedDB: private mode)'])
  })

  it('where the store fails later, goes on in memory, says so once, and leaves the store alone', async () => {
    const lines: string[] = []
    const store = mapStore(new Error('quota exceeded'))
    const cache = await createSourcifyCache({ open: async () => store, warn: (line) => lines.push(line) })
    await cache.restore?.([key])
    expect(cache.get(key)).toBeUndefined()
    cache.set(key, answer, 100)
    await settle()
    cache.set(cacheKeys.sourcify(1n, `0x${'ef'.repeat(32)}`), answer, 100)
    await settle()
    await cache.restore?.([cacheKeys.sourcify(5n, `0x${'ab'.repeat(32)}`)])
    expect(cache.get(key)).toBe(answer)
    expect(store.calls).toBe(1)
    expect(lines).toEqual(['sourcify: answers are kept in memory only, for this page (IndexedDB: quota exceeded)'])
  })
})
