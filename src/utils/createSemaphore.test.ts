import { describe, expect, it } from 'vitest'
import { createSemaphore } from './createSemaphore.js'

describe('createSemaphore', () => {
  it('lets `slots` holders in at a time, the others in arrival order', async () => {
    const sem = createSemaphore(2)
    const order: number[] = []
    const releases = await Promise.all([sem.acquire(), sem.acquire()])
    const later = [3, 4].map((n) =>
      sem.acquire().then((release) => {
        order.push(n)
        return release
      }),
    )
    expect(sem.waiting).toBe(2)
    releases[0]!()
    releases[0]!() // a second release gives nothing back
    const third = await later[0]!
    expect(order).toEqual([3])
    expect(sem.busy).toBe(2)
    releases[1]!()
    ;(await later[1]!)()
    third()
    expect(sem.busy).toBe(0)
  })

  it('a waiter whose signal aborts leaves the line with its reason, holding nothing', async () => {
    const sem = createSemaphore(1)
    const release = await sem.acquire()
    const controller = new AbortController()
    const waiting = sem.acquire(controller.signal)
    controller.abort(new Error('deadline'))
    await expect(waiting).rejects.toThrow('deadline')
    expect(sem.waiting).toBe(0)
    release()
    expect(sem.busy).toBe(0)
  })
})
