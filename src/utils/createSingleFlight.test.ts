import { describe, expect, it } from 'vitest'
import { createSingleFlight } from './createSingleFlight.js'

class Late extends Error {}

describe('createSingleFlight', () => {
  it('shares one load among concurrent callers', async () => {
    const once = createSingleFlight()
    let loads = 0
    const load = async () => {
      loads++
      await new Promise((resolve) => setTimeout(resolve, 5))
      return loads
    }
    expect(await Promise.all([once('k', load), once('k', load), once('k', load)])).toEqual([1, 1, 1])
    expect(await once('k', load)).toBe(2)
  })

  it('gives a joiner a fresh load when the shared one failed on its starter’s clock, and other failures to all', async () => {
    const once = createSingleFlight({ rejoin: (err) => err instanceof Late })
    let loads = 0
    const failing = (err: Error) => async () => {
      loads++
      await new Promise((resolve) => setTimeout(resolve, 5))
      throw err
    }
    const first = once('k', failing(new Late('gave up')))
    const joiner = once('k', async () => {
      loads++
      return 'fresh'
    })
    await expect(first).rejects.toThrow('gave up')
    expect(await joiner).toBe('fresh')
    expect(loads).toBe(2)

    const bad = once('j', failing(new Error('does not verify')))
    const badJoiner = once('j', async () => 'never')
    await expect(bad).rejects.toThrow('does not verify')
    await expect(badJoiner).rejects.toThrow('does not verify')
  })
})
