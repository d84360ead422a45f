import { type Server, createServer } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChainRules } from '../../chain/createChainRules.js'
import { createEngine } from '../../exec/createEngine.js'
import type { Upstream } from '../../upstream/types.js'
import { createRangeWorkers } from './createRangeWorkers.js'

// The Node pool's word on its threads' starts, with real (hardened) threads: a task whose thread
// starts for it hears 'starting', then 'ready' once the thread begins it; a task given a started
// thread, or queued behind a busy one, hears nothing.
describe('createRangeWorkers: cold starts', () => {
  // An upstream that takes requests and never answers: a task asking it keeps its thread busy.
  let hanging: Server
  let url: string
  beforeAll(async () => {
    hanging = createServer(() => {})
    await new Promise<void>((done) => hanging.listen(0, '127.0.0.1', done))
    url = `http://127.0.0.1:${(hanging.address() as { port: number }).port}`
  })
  afterAll(async () => {
    hanging.closeAllConnections()
    await new Promise((done) => hanging.close(done))
  })

  const pool = (threads: number) => {
    // The main daemon's engine: only its cache and options are used (no upstream is asked here).
    const upstream = {
      request: async () => {
        throw new Error('not asked')
      },
    } as unknown as Upstream
    const engine = createEngine({ upstream, rules: createChainRules({ chainId: 1n }) })
    return createRangeWorkers({
      threads,
      harden: true,
      engine,
      data: { upstream: url, api: ['eth'], chainId: 1n },
    })
  }
  const request = (method: string, params: unknown[] = []) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
  const CHAIN_ID = '{"jsonrpc":"2.0","id":1,"result":"0x1"}'

  it('tells the task its thread starts for (starting, then ready before its answer), not the one queued behind it, nor a later one', async () => {
    const workers = pool(1)
    try {
      const heard: string[] = []
      const run = (name: string) =>
        workers
          .run(request('eth_chainId'), undefined, undefined, (phase) => heard.push(`${name} ${phase}`))
          .then((text) => {
            heard.push(`${name} answered`)
            return text
          })
      // One thread: the second task waits for the first task's end, not for a start.
      expect(await Promise.all([run('first'), run('second')])).toEqual([CHAIN_ID, CHAIN_ID])
      expect(heard).toEqual(['first starting', 'first ready', 'first answered', 'second answered'])
      heard.length = 0
      expect(await run('third')).toBe(CHAIN_ID)
      expect(heard).toEqual(['third answered'])
    } finally {
      await workers.close()
    }
  }, 60_000)

  it('a task after one whose thread was ended (its task aborted) waits for the replacement thread’s start, and hears it', async () => {
    const workers = pool(1)
    try {
      const heard: string[] = []
      const run = (name: string, text: string, signal?: AbortSignal) =>
        workers.run(text, signal, undefined, (phase) => heard.push(`${name} ${phase}`))
      expect(await run('first', request('eth_chainId'))).toBe(CHAIN_ID)
      // Its balance is asked of the hanging upstream: the task holds the started thread until aborted.
      const stop = new AbortController()
      const stuck = run(
        'stuck',
        request('eth_getBalance', ['0x0000000000000000000000000000000000000001', 'latest']),
        stop.signal,
      )
      await new Promise((r) => setTimeout(r, 300))
      stop.abort(new Error('gave up'))
      await expect(stuck).rejects.toThrow()
      expect(await run('next', request('eth_chainId'))).toBe(CHAIN_ID)
      expect(heard).toEqual(['first starting', 'first ready', 'next starting', 'next ready'])
    } finally {
      await workers.close()
    }
  }, 60_000)
})
