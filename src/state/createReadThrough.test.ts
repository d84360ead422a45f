import { describe, expect, it } from 'vitest'
import { type CacheBacking, createLruCache } from '../utils/createLruCache.js'
import { createReadThrough } from './createReadThrough.js'

/** A persistent tier in memory, which records what it was asked for. */
function backingWith(entries: Record<string, unknown>) {
  const asked: string[][] = []
  const backing: CacheBacking = {
    async load(keys) {
      asked.push([...keys])
      return new Map(keys.filter((k) => k in entries).map((k) => [k, { value: entries[k], bytes: 10 }]))
    },
    save() {},
  }
  return { backing, asked }
}

describe('createReadThrough', () => {
  it('answers from memory without loading', async () => {
    const cache = createLruCache(1 << 20)
    cache.set('s:1', 'in memory', 10)
    const read = createReadThrough(cache)
    let loads = 0
    expect(await read('s:1', async () => `loaded ${++loads}`)).toBe('in memory')
    expect(loads).toBe(0)
  })

  it('loads a miss once for all concurrent readers, and again after a failed load', async () => {
    const cache = createLruCache(1 << 20)
    const read = createReadThrough(cache)
    let loads = 0
    const load = async () => {
      loads++
      await new Promise((r) => setTimeout(r, 10))
      return 'loaded'
    }
    expect(await Promise.all([read('s:1', load), read('s:1', load), read('s:1', load)])).toEqual([
      'loaded',
      'loaded',
      'loaded',
    ])
    expect(loads).toBe(1)
    // A load caches nothing by itself (the real ones cache what they prove), and a failure is not remembered.
    await expect(read('s:2', async () => Promise.reject(new Error('upstream down')))).rejects.toThrow('upstream down')
    expect(await read('s:2', async () => 'second try')).toBe('second try')
  })

  it('asks the persistent tier before loading, and loads only what it does not hold', async () => {
    const { backing, asked } = backingWith({ 's:held': 'from disk', 'a:absent': null })
    const cache = createLruCache(1 << 20, backing)
    const read = createReadThrough(cache)
    let loads = 0
    expect(await read('s:held', async () => `loaded ${++loads}`)).toBe('from disk')
    // A cached null (an account proven absent) is a hit, not a miss.
    expect(await read('a:absent', async () => `loaded ${++loads}`)).toBeNull()
    expect(loads).toBe(0)
    expect(await read('s:other', async () => `loaded ${++loads}`)).toBe('loaded 1')
    expect(asked).toEqual([['s:held'], ['a:absent'], ['s:other']])
  })
})
