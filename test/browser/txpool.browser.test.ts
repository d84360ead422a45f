import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { EdgetraceClient } from '../../src/browser/connectEdgetraceWorker.js'
import { env, nodeAnswer, startWorker } from './support.js'

// The pool lives in the worker: a transaction sent through the in-browser daemon is checked there,
// forwarded to anvil, kept, and sorted on proven state — the same answer as the Node server's,
// which learns it from anvil's pool.
const KEY = '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356' // anvil's dev account 7
let client: EdgetraceClient
type Pool = Record<'pending' | 'baseFee' | 'queued', Record<string, { hash: string }>>
/** One call through the worker, its envelope read as a result or an error. */
const call = async (method: string, params: unknown[]) =>
  (await client.call(method, params)) as { result?: unknown; error?: { code: number; message: string } }

beforeAll(async () => {
  client = await startWorker()
})
afterAll(async () => {
  await client?.close()
})

it('keeps a transaction sent through the worker, queued behind its nonce gap, as the Node server sorts it', async () => {
  const account = privateKeyToAccount(KEY)
  const nonce = Number(BigInt((await call('eth_getTransactionCount', [account.address, 'latest'])).result as string))
  const raw = await account.signTransaction({
    chainId: 31337,
    type: 'eip1559',
    to: '0x00000000000000000000000000000000000000ee',
    value: 1n,
    gas: 21_000n,
    nonce: nonce + 3,
    maxFeePerGas: 100_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  })
  const sent = await call('eth_sendRawTransaction', [raw])
  expect(sent.error).toBeUndefined()
  const mine = (await call('txpool_contentFrom', [account.address])).result as Pool
  expect(Object.keys(mine.queued)).toEqual([String(nonce + 3)])
  expect(mine.queued[String(nonce + 3)]!.hash).toBe(sent.result)
  expect(mine).toEqual((await nodeAnswer('txpool_contentFrom', [account.address])).result)
  // A second send of the same bytes: refused by the worker's pool, as geth words it.
  expect((await call('eth_sendRawTransaction', [raw])).error).toEqual({ code: -32000, message: 'already known' })
  expect(env().api).toContain('txpool')
})
