import { type ChildProcess, spawn } from 'node:child_process'
import { Queue } from 'bullmq'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../src/node/devnet/startDevnet.js'
import { queueConnection, queueNameFor } from '../src/node/createQueueWorkers.js'
import { parseCliArgs } from '../src/node/parseCliArgs.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { type RedisServer, startRedis } from '../tools/fleet/startRedis.js'
import { CLI_ARGS } from './src/cliCommand.js'
import { DEV_ACCOUNT, rpc, rpcResult } from './src/rpc.js'

// The shared work queue (--queue.redis, BullMQ) on a real redis-server: one process owns a
// trace_filter over 2,000 devnet blocks (and ots searches scanning them), two CLI processes with
// --queue.work take its stretches.

const BLOCKS = 2000
let devnet: Devnet
let redis: RedisServer
let alone: RunningEdgetrace
let owner: RunningEdgetrace
const workers: ChildProcess[] = []

/** A CLI process that takes stretches from the queue (one worker thread), resolved once it listens. */
function startQueueWorker(): Promise<ChildProcess> {
  const args = ['--upstream', devnet.anvil.url, '--hardfork', 'prague', '--http.port', '0']
  const child = spawn(
    process.execPath,
    [...CLI_ARGS, ...args, '--queue.redis', redis.url, '--queue.work', '--queue.lock', '2s', '--workers', '1'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  workers.push(child)
  let output = ''
  return new Promise((done, fail) => {
    const onData = (d: Buffer) => {
      output += d.toString()
      if (/listening: +http/.test(output)) done(child)
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.on('exit', (code) => fail(new Error(`a queue worker exited (${code}):\n${output}`)))
  })
}

/** The answer's text as it came. */
const postText = async (url: string, text: string) =>
  (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text })).text()

/** One sample's value in a server's /metrics, or undefined when it has none. */
const metric = async (url: string, sample: string) => {
  const text = await (await fetch(`${url}/metrics`)).text()
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `))
  return line === undefined ? undefined : Number(line.slice(sample.length + 1))
}

// From block 3: the devnet's first blocks sit on anvil's genesis, whose state no proof reaches.
const FILTER = () => ({ fromBlock: '0x3', toBlock: 'latest' })
const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'trace_filter', params: [FILTER()] })

beforeAll(async () => {
  ;[devnet, redis] = await Promise.all([startDevnet(), startRedis()])
  await rpcResult(devnet.anvil.url, 'anvil_mine', [`0x${BLOCKS.toString(16)}`])
  const common = {
    upstream: devnet.anvil.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'trace', 'debug', 'ots'],
    // The ots searches scan blocks (no index: anvil's own ots_search is not asked).
    engine: { otsSearchIndex: false },
  }
  alone = await startEdgetrace({ ...common, workers: { threads: 0 } })
  owner = await startEdgetrace({ ...common, workers: { threads: 0 }, queue: { redis: redis.url } })
  await Promise.all([startQueueWorker(), startQueueWorker()])
}, 120_000)
afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL')
  await owner?.close()
  await alone?.close()
  await redis?.stop()
  await devnet?.stop()
})

describe('--queue.redis and --queue.work: long ranges on a fleet', () => {
  it(`trace_filter over ${BLOCKS} blocks through the queue equals one process's answer byte for byte`, async () => {
    // Both at once: the reference on one process's main thread, the other through the queue.
    const [expected, queued] = await Promise.all([postText(alone.url, body), postText(owner.url, body)])
    expect(JSON.parse(expected).error, expected.slice(0, 300)).toBeUndefined()
    expect(JSON.parse(expected).result.length).toBeGreaterThan(20)
    expect(queued).toBe(expected)
  }, 300_000)

  it(`ots_searchTransactionsBefore / After scanning the ${BLOCKS} blocks through the queue find one process's pages`, async () => {
    const token = devnet.contracts.Token!
    const nobody = '0x00000000000000000000000000000000000c0ffe'
    const put = await metric(owner.url, 'edgetrace_queue_put_total')
    for (const params of [
      [token, 0, 25],
      [DEV_ACCOUNT, 0, 1],
      [nobody, 0, 5],
    ]) {
      for (const method of ['ots_searchTransactionsBefore', 'ots_searchTransactionsAfter']) {
        const [expected, queued] = await Promise.all([rpc(alone.url, method, params), rpc(owner.url, method, params)])
        expect(expected.error, `${method} ${params}`).toBeUndefined()
        expect(queued, `${method} ${params}`).toEqual(expected)
      }
    }
    // The scans went on the queue in stretches.
    expect(await metric(owner.url, 'edgetrace_queue_put_total')).toBeGreaterThan(put! + 20)
    // A page filled from the first stretches leaves none of the others waiting.
    const queue = new Queue(queueNameFor(31337n), { connection: queueConnection(redis.url) })
    try {
      await expect.poll(() => queue.getWaitingCount(), { timeout: 10_000, interval: 100 }).toBe(0)
    } finally {
      await queue.close()
    }
  }, 300_000)

  it('/metrics: the queue depth while no process takes the stretches, 0 once one does; stretches put, taken and failed; no wait on a Redis gone', async () => {
    // A Redis of its own: the workers above take nothing from it.
    const own = await startRedis()
    const common = { upstream: devnet.anvil.url, port: 0, hardfork: 'prague', api: ['eth', 'trace'] }
    const lone = await startEdgetrace({ ...common, workers: { threads: 0 }, queue: { redis: own.url } })
    let taker: RunningEdgetrace | undefined
    const waiting = 'edgetrace_queue_jobs{state="waiting"}'
    try {
      expect(await metric(lone.url, waiting)).toBe(0)
      const range = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'trace_filter',
        params: [{ fromBlock: '0x3', toBlock: '0xd0' }],
      })
      const answer = postText(lone.url, range)
      // No process takes the range's stretches: they wait on the queue.
      await expect.poll(() => metric(lone.url, waiting), { timeout: 10_000, interval: 100 }).toBeGreaterThan(0)
      expect(await metric(lone.url, 'edgetrace_queue_put_total')).toBeGreaterThanOrEqual(
        (await metric(lone.url, waiting))!,
      )
      taker = await startEdgetrace({ ...common, workers: { threads: 1 }, queue: { redis: own.url, work: true } })
      expect(await answer).toBe(await postText(alone.url, range))
      await expect.poll(() => metric(lone.url, waiting), { timeout: 10_000, interval: 100 }).toBe(0)
      expect(await metric(lone.url, 'edgetrace_queue_jobs{state="active"}')).toBe(0)
      const put = await metric(lone.url, 'edgetrace_queue_put_total')
      expect(put).toBeGreaterThan(10)
      expect(await metric(taker.url, 'edgetrace_queue_taken_total')).toBe(put)
      expect(await metric(lone.url, 'edgetrace_queue_failed_total{side="put"}')).toBe(0)
      expect(await metric(taker.url, 'edgetrace_queue_failed_total{side="taken"}')).toBe(0)
      await taker.close()
      taker = undefined
      // Redis gone: /metrics answers at once, without the depth it cannot read.
      await own.kill()
      const started = Date.now()
      const res = await fetch(`${lone.url}/metrics`)
      const text = await res.text()
      expect(Date.now() - started).toBeLessThan(2_000)
      expect(res.status).toBe(200)
      expect(text).not.toContain('edgetrace_queue_jobs{')
      expect(text).toContain(`edgetrace_queue_put_total ${put}`)
      // Back (empty), so that the owner's connections close at once.
      await own.start()
    } finally {
      await taker?.close()
      await lone.close()
      await own.stop()
    }
  }, 120_000)

  it('a worker killed with SIGKILL mid-range: its stretch is run again elsewhere, the answer complete and in order', async () => {
    const expected = await postText(alone.url, body)
    const answer = postText(owner.url, body)
    // Once the range is under way, one of the two workers dies holding stretches.
    await new Promise((r) => setTimeout(r, 300))
    workers[0]!.kill('SIGKILL')
    expect(await answer).toBe(expected)
  }, 300_000)

  it('a client that goes away takes its stretches still waiting off the queue', async () => {
    const queue = new Queue(queueNameFor(31337n), { connection: queueConnection(redis.url) })
    try {
      const client = new AbortController()
      const answer = fetch(owner.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: client.signal,
      })
      await expect
        .poll(async () => (await queue.getJobCounts('wait')).wait, { timeout: 10_000, interval: 50 })
        .toBeGreaterThan(0)
      client.abort()
      await answer.catch(() => undefined)
      await expect.poll(() => queue.getWaitingCount(), { timeout: 10_000, interval: 100 }).toBe(0)
    } finally {
      await queue.close()
    }
  }, 60_000)

  it('--queue.work and --queue.lock need --queue.redis', () => {
    expect(() => parseCliArgs(['--queue.work'])).toThrow(/need --queue.redis URL/)
    expect(
      parseCliArgs(['--queue.redis', 'redis://127.0.0.1:6379', '--queue.work', '--queue.lock', '5s']),
    ).toMatchObject({
      queueRedis: 'redis://127.0.0.1:6379',
      queueWork: true,
      queueLockMs: 5000,
    })
  })
})
