import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { rpcResult, waitForReceipt } from './src/rpc.js'

// /graphql cannot be made to act for a web page elsewhere: a mutation by GET (which any page can
// make, an <img> included) is refused and never reaches the upstream, and a browser's request from
// an origin --http.corsdomain does not allow is refused, by GET or POST. Queries by GET still work.

let anvil: AnvilInstance
let edge: RunningEdgetrace
// anvil's third dev account: no other test here sends from it.
const account = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a')
let nonce = 0

beforeAll(async () => {
  anvil = await startAnvil()
  await rpcResult(anvil.url, 'evm_mine', [])
  edge = await startEdgetrace({
    upstream: anvil.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth'],
    graphql: true,
    corsDomains: ['https://allowed.example'],
  })
}, 60_000)

afterAll(async () => {
  await edge?.close()
  await anvil?.stop()
})

/** A signed transfer of 1 wei with the next nonce, and its hash. */
async function signedTransfer(): Promise<{ raw: string; hash: string }> {
  const raw = await account.signTransaction({
    chainId: 31337,
    type: 'eip1559',
    nonce: nonce++,
    to: account.address,
    value: 1n,
    gas: 21_000n,
    maxFeePerGas: 10_000_000_000n,
    maxPriorityFeePerGas: 1n,
  })
  const { keccak256 } = await import('viem')
  return { raw, hash: keccak256(raw) }
}

/** Whether anvil has the transaction (a moment later: it mines at once). */
async function reachedUpstream(hash: string): Promise<boolean> {
  await new Promise((r) => setTimeout(r, 300))
  return (await rpcResult(anvil.url, 'eth_getTransactionByHash', [hash])) !== null
}

const get = (params: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${edge.url}/graphql?${new URLSearchParams(params)}`, { headers })

const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${edge.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

describe('GraphQL by GET runs queries only', () => {
  it('refuses a mutation by GET with 405, and the transaction never reaches the upstream', async () => {
    const { raw, hash } = await signedTransfer()
    const res = await get({ query: `mutation { sendRawTransaction(data: "${raw}") }` })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST')
    expect(await res.json()).toEqual({
      errors: [{ message: 'mutations are not allowed over GET: send them with POST' }],
    })
    expect(await reachedUpstream(hash)).toBe(false)
    // The operation named is the one judged: a document with a query and a mutation.
    const both = `query Q { block { number } } mutation M { sendRawTransaction(data: "${raw}") }`
    expect((await get({ query: both, operationName: 'M' })).status).toBe(405)
    expect(await reachedUpstream(hash)).toBe(false)
    const asQuery = await get({ query: both, operationName: 'Q' })
    expect(asQuery.status).toBe(200)
    expect((await asQuery.json()).data.block.number).toBeDefined()
    // The same mutation by POST is sent (what the GET would have done).
    const sent = await post({ query: `mutation { sendRawTransaction(data: "${raw}") }` })
    expect(await sent.json()).toEqual({ data: { sendRawTransaction: hash } })
    expect((await waitForReceipt(anvil.url, hash)).status).toBe('0x1')
  })

  it('still answers queries by GET', async () => {
    const res = await get({ query: '{ block { number } chainID }' })
    expect(res.status).toBe(200)
    expect((await res.json()).data.chainID).toBe('0x7a69')
  })
})

describe('GraphQL from a browser page elsewhere', () => {
  it('refuses a POST from an origin --http.corsdomain does not allow: nothing runs', async () => {
    const { raw, hash } = await signedTransfer()
    const res = await post(
      { query: `mutation { sendRawTransaction(data: "${raw}") }` },
      { origin: 'https://evil.example' },
    )
    expect(res.status).toBe(403)
    expect(await res.text()).toBe('origin not allowed (see --http.corsdomain)\n')
    expect(await reachedUpstream(hash)).toBe(false)
    // From an allowed origin it runs, and the answer may be read there.
    const allowed = await post(
      { query: `mutation { sendRawTransaction(data: "${raw}") }` },
      { origin: 'https://allowed.example' },
    )
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://allowed.example')
    expect(await allowed.json()).toEqual({ data: { sendRawTransaction: hash } })
    expect((await waitForReceipt(anvil.url, hash)).status).toBe('0x1')
  })

  it('refuses a query by GET from another origin too; the server’s own pages and clients without Origin are served', async () => {
    const foreign = await get({ query: '{ chainID }' }, { origin: 'https://evil.example' })
    expect(foreign.status).toBe(403)
    const own = await get({ query: '{ chainID }' }, { origin: edge.url })
    expect(own.status).toBe(200)
    expect((await own.json()).data.chainID).toBe('0x7a69')
    const plain = await post({ query: '{ chainID }' })
    expect(plain.status).toBe(200)
  })
})
