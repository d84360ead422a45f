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

  it('tells a task whose worker starts for it (starting, then ready), and not one given a started worker', async () => {
    const workers = counting()
    const pool = createWebWorkerPool({ size: 1, start: workers.start })
    const phases: string[] = []
    await pool.run('{"a":1}', undefined, undefined, (phase) => phases.push(`first ${phase}`))
    await pool.run('{"a":2}', undefined, undefined, (phase) => phases.push(`second ${phase}`))
    expect(phases).toEqual(['first starting', 'first ready'])
    expect(workers.started).toHaveLength(1)
    await pool.close()
  })

  it('a third task waits for a released worker rather than starting one past the size', async () => {
    const workers = counting()
    const pool = createWebWorkerPool({ size: 2, start: workers.start })
    const answers = await Promise.all([1, 2, 3].map((a) => pool.run(JSON.stringify({ a }))))
    expect(answers).toHaveLength(3)
    expect(workers.started).toHaveLength(2)
    await pool.close()
  })

  it('a task aborted while it waits for a worker leaves the queue: it never runs, and the next task gets the worker', async () => {
    const ran: unknown[] = []
    let finish: (() => void) | undefined
    const pool = createWebWorkerPool({
      size: 1,
      start: async () => ({
        async request(message) {
          ran.push(message)
          if ((message as { a: number }).a === 1) await new Promise<void>((r) => (finish = r))
          return message
        },
        close: async () => {},
      }),
    })
    const first = pool.run('{"a":1}')
    await new Promise((r) => setTimeout(r, 10))
    const cancel = new AbortController()
    const queued = pool.run('{"a":2}', cancel.signal)
    cancel.abort(new Error('the client went away'))
    await expect(queued).rejects.toThrow('the client went away')
    const next = pool.run('{"a":3}')
    finish?.()
    expect(JSON.parse(await first)).toEqual({ a: 1 })
    expect(JSON.parse(await next)).toEqual({ a: 3 })
    expect(ran).toEqual([{ a: 1 }, { a: 3 }])
    await pool.close()
  })

  it('a task waiting while the busy worker’s task is aborted gets a fresh worker (the aborted one is closed)', async () => {
    let started = 0
    const pool = createWebWorkerPool({
      size: 1,
      start: async () => {
        const id = started++
        return {
          request: (message) =>
            (message as { a: number }).a === 1 ? new Promise<never>(() => {}) : Promise.resolve({ worker: id }),
          close: async () => {},
        }
      },
    })
    const cancel = new AbortController()
    const endless = pool.run('{"a":1}', cancel.signal)
    await new Promise((r) => setTimeout(r, 10))
    const waiting = pool.run('{"a":2}')
    cancel.abort(new Error('execution timeout'))
    await expect(endless).rejects.toThrow('execution timeout')
    expect(JSON.parse(await waiting)).toEqual({ worker: 1 })
    await pool.close()
  })
})
