import { describe, expect, it } from 'vitest'
import { type PooledWorker, createWebWorkerPool } from './createWebWorkerPool.js'

// The pool's bookkeeping with stand-in workers (the real Web Workers are in test/browser/rangeWorkers).
describe('createWebWorkerPool', () => {
  const counting = () => {
    const started: number[] = []
    let closed = 0
    const start = async (): Promise<PooledWorker> => {
      const id = started.length
      started.push(id)
      await new Promise((r) => setTimeout(r, 20))
      return {
        request: async (message) => ({ worker: id, echo: message }),
        close: async () => {
          closed++
        },
      }
    }
    return { started, start, closed: () => closed }
  }

  it('has no free worker until one is up; warmUp starts the pool once, in the background', async () => {
    const workers = counting()
    const pool = createWebWorkerPool({ size: 2, start: workers.start })
    expect(pool.hasFree()).toBe(false)
    pool.warmUp()
    pool.warmUp()
    expect(workers.started).toHaveLength(2)
    expect(pool.hasFree()).toBe(false)
    await new Promise((r) => setTimeout(r, 60))
    expect(pool.hasFree()).toBe(true)
    const answers = await Promise.all([pool.run('{"a":1}'), pool.run('{"a":2}')])
    expect(answers.map((a) => JSON.parse(a).echo)).toEqual([{ a: 1 }, { a: 2 }])
    expect(workers.started).toHaveLength(2)
    await pool.close()
    expect(workers.closed()).toBe(2)
  })

  it('a third task waits for a released worker rather than starting one past the size', async () => {
    const workers = counting()
    const pool = createWebWorkerPool({ size: 2, start: workers.start })
    const answers = await Promise.all([1, 2, 3].map((a) => pool.run(JSON.stringify({ a }))))
    expect(answers).toHaveLength(3)
    expect(workers.started).toHaveLength(2)
    await pool.close()
  })
})
