import { type ChildProcess, spawn } from 'node:child_process'
import { Queue } from 'bullmq'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../src/node/devnet/startDevnet.js'
import { queueConnection, queueNameFor } from '../src/node/createQueueWorkers.js'
import { parseCliArgs } from '../src/node/parseCliArgs.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { type RedisServer, startRedis } from '../tools/fleet/startRedis.js'
import { CLI_ARGS } from './src/cliCommand.js'
import { rpcResult } from './src/rpc.js'

// The shared work queue (--queue.redis, BullMQ) on a real redis-server: one process owns a
// trace_filter over 2,000 devnet blocks, two CLI processes with --queue.work take its stretches.

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

// From block 3: the devnet's first blocks sit on anvil's genesis, whose state no proof reaches.
const FILTER = () => ({ fromBlock: '0x3', toBlock: 'latest' })
const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'trace_filter', params: [FILTER()] })

beforeAll(async () => {
  ;[devnet, redis] = await Promise.all([startDevnet(), startRedis()])
  await rpcResult(devnet.anvil.url, 'anvil_mine', [`0x${BLOCKS.toString(16)}`])
  const common = { upstream: devnet.anvil.url, port: 0, hardfork: 'prague', api: ['eth', 'trace', 'debug'] }
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
