import { describe, expect, it } from 'vitest'
import { createLruCache } from './createLruCache.js'

describe('createLruCache', () => {
  it('evicts the least recently used entries past the byte budget', () => {
    const cache = createLruCache(300)
    cache.set('a', 1, 100)
    cache.set('b', 2, 100)
    cache.set('c', 3, 100)
    expect(cache.get('a')).toBe(1) // a is now the most recent
    cache.set('d', 4, 100)
    expect(cache.has('b')).toBe(false)
    expect(cache.has('a')).toBe(true)
    expect(cache.stats()).toMatchObject({ entries: 3, bytes: 300, evictions: 1, hits: 1 })
  })

  it('shrinks at once when the budget shrinks; a budget of 0 disables eviction', () => {
    const cache = createLruCache(0)
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, i, 1000)
    expect(cache.stats().entries).toBe(10)
    cache.setBudget(2500)
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 2000, evictions: 8 })
    expect(cache.get('k9')).toBe(9)
    expect(cache.get('k0')).toBeUndefined()
  })
})
