import { describe, expect, it } from 'vitest'
import { createIdbStore } from './createIdbStore.js'

const name = () => `idb-store-test-${Date.now()}-${Math.random().toString(16).slice(2)}`
const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill)

describe('createIdbStore (IndexedDB)', () => {
  it('keeps values across a reopen, with their sizes', async () => {
    const db = name()
    const store = await createIdbStore({ name: db })
    await store.setMany([
      ['c:1', bytes(10, 1), 100],
      ['a:2', null, 50],
      ['h:3', { number: 5n, rlp: bytes(3, 7) }, 80],
    ])
    await store.flush()
    const again = await createIdbStore({ name: db })
    // Values are readable at once; the index (sizes, recency) is read in the background.
    expect(await again.getMany(['c:1'])).toEqual([bytes(10, 1)])
    await again.flush()
    expect(again.stats()).toMatchObject({ entries: 3, bytes: 230 })
    expect(await again.getMany(['c:1', 'a:2', 'h:3', 'x:4'])).toEqual([
      bytes(10, 1),
      null,
      { number: 5n, rlp: bytes(3, 7) },
      undefined,
    ])
    expect(again.stats()).toMatchObject({ reads: 5, hits: 4 })
  })

  it('evicts the least recently used entries once over budget, down to 90% of it', async () => {
    const db = name()
    const store = await createIdbStore({ name: db, budgetBytes: 1000 })
    for (let i = 0; i < 5; i++) {
      await store.setMany([[`k:${i}`, bytes(4, i), 200]])
      await new Promise((r) => setTimeout(r, 5))
    }
    // k:0 is read (recently used) before the budget is exceeded: k:1 and k:2 are the oldest then.
    await store.getMany(['k:0'])
    await new Promise((r) => setTimeout(r, 5))
    await store.setMany([['k:5', bytes(4, 5), 200]])
    expect(store.stats()).toMatchObject({ entries: 4, bytes: 800, evictions: 2 })
    const got = await store.getMany(['k:0', 'k:1', 'k:2', 'k:3', 'k:4', 'k:5'])
    expect(got.map((v) => v !== undefined)).toEqual([true, false, false, true, true, true])
    const reopened = await createIdbStore({ name: db, budgetBytes: 1000 })
    await reopened.flush()
    expect(reopened.stats()).toMatchObject({ entries: 4, bytes: 800 })
  })

  it('clear empties both the values and the index', async () => {
    const db = name()
    const store = await createIdbStore({ name: db })
    await store.setMany([['c:1', bytes(1, 1), 10]])
    await store.clear()
    expect(store.stats()).toMatchObject({ entries: 0, bytes: 0 })
    const reopened = await createIdbStore({ name: db })
    await reopened.flush()
    expect(reopened.stats().entries).toBe(0)
    expect(await reopened.getMany(['c:1'])).toEqual([undefined])
  })
})
