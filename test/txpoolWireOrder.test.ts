import { toChecksumAddress } from '@ethereumjs/util'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { rpc, rpcResult } from './src/rpc.js'

// txpool_content / txpool_contentFrom / txpool_status byte for byte as the reference daemon writes
// them: Go's encoding/json sorts a map's keys by their bytes at every level (sub-pools, EIP-55
// senders, decimal nonces: "10" before "9"), and writes an RPCTransaction's fields in its struct's
// order (/work/shared/reference/erigon-rpc.md, txpool_content). A JavaScript object cannot hold
// "10" before "9", so the expected text is built here from the parsed answer by a Go-style writer.
const KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', // dev account 0
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d', // dev account 1
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a', // dev account 2
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6', // dev account 3
] as const
const [alice, bob, carol, dave] = KEYS.map((k) => privateKeyToAccount(k))
const TO = '0x00000000000000000000000000000000000000ee'
const GWEI = 1_000_000_000n

/** The reference's RPCTransaction fields, in its struct's order. */
const REFERENCE_FIELDS = [
  'blockHash',
  'blockNumber',
  'from',
  'gas',
  'gasPrice',
  'maxPriorityFeePerGas',
  'maxFeePerGas',
  'hash',
  'input',
  'nonce',
  'to',
  'transactionIndex',
  'value',
  'type',
  'accessList',
  'chainId',
  'maxFeePerBlobGas',
  'blobVersionedHashes',
  'authorizationList',
  'v',
  'yParity',
  'r',
  's',
]

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b)) as number
/** Go's text of nested maps `levels` deep, whose leaves are RPCTransactions. */
function goJson(value: Record<string, unknown>, levels: number): string {
  if (levels === 0) {
    expect(Object.keys(value).every((k) => REFERENCE_FIELDS.includes(k))).toBe(true)
    const fields = REFERENCE_FIELDS.filter((k) => k in value)
    return `{${fields.map((k) => `${JSON.stringify(k)}:${JSON.stringify(value[k])}`).join(',')}}`
  }
  const keys = Object.keys(value).sort(byBytes)
  return `{${keys.map((k) => `${JSON.stringify(k)}:${goJson(value[k] as Record<string, unknown>, levels - 1)}`).join(',')}}`
}

/** The raw text of a method's result, as it went over the wire. */
async function resultText(url: string, method: string, params: unknown[] = []): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const text = await res.text()
  const head = '{"jsonrpc":"2.0","id":1,"result":'
  expect(text.startsWith(head), text).toBe(true)
  return text.slice(head.length, -1)
}

let anvil: AnvilInstance
let edge: RunningEdgetrace
let chainId: number

beforeAll(async () => {
  anvil = await startAnvil({ args: ['--no-mining'] })
  await rpcResult(anvil.url, 'evm_mine', []) // state from block 1 on verifies
  chainId = Number(await rpcResult(anvil.url, 'eth_chainId', []))
  edge = await startEdgetrace({
    upstream: anvil.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'txpool'],
    graphql: true,
  })
}, 60_000)

afterAll(async () => {
  await edge?.close()
  await anvil?.stop()
})

describe('txpool answers byte for byte as the reference writes them', () => {
  it('sorts every level’s keys as Go does and writes transaction fields in the reference’s order', async () => {
    const sign = (account: typeof alice, nonce: number, over: Record<string, unknown> = {}) =>
      account!.signTransaction({
        chainId,
        type: 'eip1559',
        to: TO,
        value: 1n,
        gas: 30_000n,
        nonce,
        maxFeePerGas: 100n * GWEI,
        maxPriorityFeePerGas: GWEI,
        ...over,
      } as never)
    const raws = [
      // 12 pending nonces from one sender: "10" and "11" sort before "2".
      ...(await Promise.all(Array.from({ length: 12 }, (_, n) => sign(alice, n)))),
      // Another sender: two pending, and one queued behind a gap.
      await sign(bob, 0),
      await sign(bob, 1),
      await sign(bob, 3),
      // A legacy (EIP-155) and an access-list transaction: gasPrice and chainId where they go.
      await sign(carol, 0, {
        type: 'legacy',
        gasPrice: 100n * GWEI,
        maxFeePerGas: undefined,
        maxPriorityFeePerGas: undefined,
      }),
      await sign(carol, 1, {
        type: 'eip2930',
        gasPrice: 100n * GWEI,
        maxFeePerGas: undefined,
        maxPriorityFeePerGas: undefined,
        accessList: [{ address: TO, storageKeys: [`0x${'00'.repeat(31)}01`] }],
      }),
      await sign(dave, 0, { data: '0x1234', to: null, gas: 100_000n }),
    ]
    for (const raw of raws) expect((await rpc(edge.url, 'eth_sendRawTransaction', [raw])).error, raw).toBeUndefined()

    const text = await resultText(edge.url, 'txpool_content')
    const parsed = JSON.parse(text) as Record<string, unknown>
    expect(text).toBe(goJson(parsed, 3))
    // What that means, spelled out.
    expect(text.startsWith('{"baseFee":{},"pending":{')).toBe(true)
    const pending = parsed.pending as Record<string, Record<string, unknown>>
    expect(Object.keys(pending).sort()).toEqual(
      [alice, bob, carol, dave].map((a) => toChecksumAddress(a!.address.toLowerCase())).sort(),
    )
    const aliceText = text.slice(text.indexOf(`"${toChecksumAddress(alice!.address.toLowerCase())}":`))
    const nonces = [...aliceText.slice(0, aliceText.indexOf('}}') + 2).matchAll(/"(\d+)":\{"blockHash"/g)].map(
      (m) => m[1],
    )
    expect(nonces).toEqual(['0', '1', '10', '11', '2', '3', '4', '5', '6', '7', '8', '9'])
    const legacy = Object.keys(
      (pending[toChecksumAddress(carol!.address.toLowerCase())] as Record<string, object>)['0']!,
    )
    expect(legacy).toEqual([
      'blockHash',
      'blockNumber',
      'from',
      'gas',
      'gasPrice',
      'hash',
      'input',
      'nonce',
      'to',
      'transactionIndex',
      'value',
      'type',
      'chainId',
      'v',
      'r',
      's',
    ])
    const dynamic = Object.keys(
      (pending[toChecksumAddress(alice!.address.toLowerCase())] as Record<string, object>)['0']!,
    )
    expect(dynamic).toEqual([
      'blockHash',
      'blockNumber',
      'from',
      'gas',
      'maxPriorityFeePerGas',
      'maxFeePerGas',
      'hash',
      'input',
      'nonce',
      'to',
      'transactionIndex',
      'value',
      'type',
      'accessList',
      'chainId',
      'v',
      'yParity',
      'r',
      's',
    ])

    const fromText = await resultText(edge.url, 'txpool_contentFrom', [alice!.address])
    expect(fromText).toBe(goJson(JSON.parse(fromText), 2))
    expect(fromText.startsWith('{"baseFee":{},"pending":{"0":{')).toBe(true)
    expect(fromText.endsWith('},"queued":{}}')).toBe(true)
    expect(await resultText(edge.url, 'txpool_status')).toBe('{"baseFee":"0x0","pending":"0x11","queued":"0x1"}')
    // GraphQL's pending block reads txpool_content's text back.
    const graphql = await fetch(`${edge.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ pending { transactionCount } }' }),
    })
    expect(await graphql.json()).toEqual({ data: { pending: { transactionCount: '0x11' } } })
  })
})
