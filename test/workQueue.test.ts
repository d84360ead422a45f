import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Queue, QueueEvents } from 'bullmq'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../src/node/devnet/startDevnet.js'
import { queueConnection, queueNameFor, startQueueWorker as takeFromQueue } from '../src/node/createQueueWorkers.js'
import { parseCliArgs } from '../src/node/parseCliArgs.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import type { FixtureNode } from '../tools/fixture-node/startFixtureNode.js'
import { type RedisServer, startRedis } from '../tools/fleet/startRedis.js'
import { BLOCKS as BOR_BLOCKS, genesis as borGenesis, named, predict, snapshotJson } from './src/borDevnet.js'
import { createSet, proposerOf } from './src/borProposerModel.js'
import { CLI_ARGS } from './src/cliCommand.js'
import { DEV_ACCOUNT, rpc, rpcResult } from './src/rpc.js'
import { startBorDevnet } from './src/startBorDevnet.js'

// The shared work queue (--queue.redis, BullMQ) on a real redis-server: one process owns a
// trace_filter over 2,000 devnet blocks (and ots searches scanning them), two CLI processes with
// --queue.work take its stretches; on a Bor devnet (a fixture node), a third takes the signers of
// an owner's validator snapshot walks.

const BLOCKS = 2000
let devnet: Devnet
let redis: RedisServer
let alone: RunningEdgetrace
let owner: RunningEdgetrace
const workers: ChildProcess[] = []

/**
 * A CLI process that takes stretches from the queue (one worker thread), resolved once it listens;
 * `chain`: its upstream and chain flags (default: the anvil devnet's).
 */
function startQueueWorker(chain = ['--upstream', devnet.anvil.url, '--hardfork', 'prague']): Promise<ChildProcess> {
  const args = [...chain, '--http.port', '0']
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

  it("a batch of block traces spreads over the fleet: each answer equals one process's, the owner's heavy calls go on the queue; one too large to come back is run by its owner", async () => {
    const numbers = [...new Set(devnet.transactions.map((t) => t.blockNumber))].filter((n) => n > 2)
    const batch = JSON.stringify(
      numbers.map((n, id) => ({
        jsonrpc: '2.0',
        id,
        method: 'trace_replayBlockTransactions',
        params: [`0x${n.toString(16)}`, ['trace', 'stateDiff']],
      })),
    )
    const expected = await postText(alone.url, batch)
    expect(JSON.parse(expected)).toHaveLength(numbers.length)
    /** The batch through `url` until `moved` says its calls went on the queue: every answer equal to one process's. */
    const untilQueued = async (url: string, moved: () => Promise<boolean>) => {
      // The owner counts the processes taking from the queue from its first heavy call on, every 3 s.
      for (let round = 0; round < 20; round++) {
        expect(await postText(url, batch)).toBe(expected)
        if (await moved()) return
        await new Promise((r) => setTimeout(r, 500))
      }
      throw new Error('no heavy call went on the queue')
    }
    const put = (await metric(owner.url, 'edgetrace_queue_put_total'))!
    await untilQueued(owner.url, async () => (await metric(owner.url, 'edgetrace_queue_put_total'))! > put)

    // On a queue of its own (Redis database 1), a taker that gives back every answer over 100 characters.
    const url = `${redis.url}/1`
    const second = await startEdgetrace({
      upstream: devnet.anvil.url,
      port: 0,
      hardfork: 'prague',
      api: ['eth', 'trace'],
      workers: { threads: 0 },
      queue: { redis: url },
    })
    const taker = takeFromQueue({
      url,
      chainId: 31337n,
      concurrency: 2,
      maxAnswerChars: 100,
      run: (text) => postText(alone.url, text),
    })
    try {
      await untilQueued(second.url, async () => taker.stats().taken > 0)
      // Each one it took, it gave back (its answer too large): the owner ran them, the answers whole.
      expect(taker.stats().failed).toBe(taker.stats().taken)
    } finally {
      await taker.close()
      await second.close()
    }
  }, 180_000)

  it('a worker killed with SIGKILL mid-range: its stretch is run again elsewhere, the answer complete and in order', async () => {
    // debug_getModifiedAccountsByNumber replays every block (the system calls change accounts even
    // in an empty one), cold on the workers: stretches that take a while, the kill lands in one.
    const range = JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'debug_getModifiedAccountsByNumber',
      params: ['0x3', `0x${(3 + 600).toString(16)}`],
    })
    const expected = await postText(alone.url, range)
    expect(JSON.parse(expected).error, expected.slice(0, 300)).toBeUndefined()
    const queue = new Queue(queueNameFor(31337n), { connection: queueConnection(redis.url) })
    const events = new QueueEvents(queueNameFor(31337n), { connection: queueConnection(redis.url) })
    try {
      await events.waitUntilReady()
      let stalled = 0
      events.on('stalled', () => stalled++)
      const answer = postText(owner.url, range)
      // Once both workers hold a stretch, one of them dies holding it.
      await expect.poll(() => queue.getActiveCount(), { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(2)
      workers[0]!.kill('SIGKILL')
      expect(await answer).toBe(expected)
      // Its stretch was found stalled (its lock ran out) and run again by the other worker.
      expect(stalled).toBeGreaterThan(0)
    } finally {
      await events.close()
      await queue.close()
    }
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

describe('--queue.redis and --queue.work: Bor snapshot walks on a fleet', () => {
  let node: FixtureNode
  let borAlone: RunningEdgetrace
  let borOwner: RunningEdgetrace
  let dir: string
  beforeAll(async () => {
    node = await startBorDevnet()
    dir = mkdtempSync(join(tmpdir(), 'edgetrace-bor-queue-'))
    const file = join(dir, 'genesis.json')
    writeFileSync(file, JSON.stringify(borGenesis))
    const common = { upstream: node.url, port: 0, api: ['eth', 'bor'], genesis: borGenesis as never }
    borAlone = await startEdgetrace({ ...common, workers: { threads: 0 } })
    // Every walk of 2 headers or more goes on the queue (the chain's own: 4243's).
    borOwner = await startEdgetrace({ ...common, workers: { threads: 0, minBlocks: 2 }, queue: { redis: redis.url } })
    await startQueueWorker(['--upstream', node.url, '--chain', file])
  }, 120_000)
  afterAll(async () => {
    await borOwner?.close()
    await borAlone?.close()
    await node?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it("bor_getCurrentValidators, getSnapshot, getSigners and getSnapshotProposer walked from the genesis through the queue equal one process's answers and the model", async () => {
    const predicted = predict({ number: 0, set: createSet(named(0)) })
    const hash = (n: number) => node.chain.byNumber(BigInt(n))!.hash
    const both = async (method: string, params: unknown[]) => {
      const [a, b] = await Promise.all([rpc(borAlone.url, method, params), rpc(borOwner.url, method, params)])
      expect(a.error, `${method} ${JSON.stringify(params)}`).toBeUndefined()
      expect(b, `${method} ${JSON.stringify(params)}`).toEqual(a)
      return a.result
    }
    const put = (await metric(borOwner.url, 'edgetrace_queue_put_total')) ?? 0
    // The head's walk (300 headers from the genesis), then later blocks before earlier ones: each walks from the genesis.
    expect(await both('bor_getCurrentValidators', [])).toEqual(
      snapshotJson(BOR_BLOCKS, hash(BOR_BLOCKS), predicted.get(BOR_BLOCKS)!.after).validatorSet.validators,
    )
    for (const n of [299, 256, 255, 100, 29]) {
      const after = predicted.get(n)!.after
      expect(await both('bor_getSnapshot', [`0x${n.toString(16)}`]), `block ${n}`).toEqual(
        snapshotJson(n, hash(n), after),
      )
      expect(await both('bor_getSigners', [`0x${n.toString(16)}`])).toEqual(after.validators.map((v) => v.address))
      expect(await both('bor_getSnapshotProposer', [`0x${(n + 1).toString(16)}`])).toBe(proposerOf(after).address)
    }
    // The walks' signers went on the queue in stretches (8 to 250 headers each).
    expect(await metric(borOwner.url, 'edgetrace_queue_put_total')).toBeGreaterThanOrEqual(put + 6 * 2)
  }, 120_000)
})
