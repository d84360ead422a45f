import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToHex, hexToBytes } from '@ethereumjs/util'
import { sha256 } from '@noble/hashes/sha2.js'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { type Proxy, createProxy } from './src/createProxy.js'
import { readKzgCase } from './src/kzgVectors.js'
import { rpc, rpcResult } from './src/rpc.js'

// The txpool namespace against anvil with automine off: transactions sent through edgetrace's own
// eth_sendRawTransaction (checked here, then forwarded), anvil's pool read back, both sorted on state
// proven at the head — compared with anvil's own txpool_content. anvil has no baseFee sub-pool and
// sorts by nonce alone: where the reference's rules differ (a fee cap under the next base fee,
// cumulative funds), the split is checked against those rules instead.
const KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', // dev account 0
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d', // dev account 1
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a', // dev account 2
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6', // dev account 3
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a', // dev account 4
] as const
const [alice, bob, carol, dave, erin] = KEYS.map((k) => privateKeyToAccount(k))
const TO = '0x00000000000000000000000000000000000000ee'
const GWEI = 1_000_000_000n

let anvil: AnvilInstance
let proxy: Proxy
let edge: RunningEdgetrace
let chainId: number

async function sign(account: typeof alice, nonce: number, over: Record<string, unknown> = {}) {
  return account!.signTransaction({
    chainId,
    type: 'eip1559',
    to: TO,
    value: 1n,
    gas: 21_000n,
    nonce,
    maxFeePerGas: 100n * GWEI,
    maxPriorityFeePerGas: 1n * GWEI,
    ...over,
  } as never)
}
/**
 * A type-2 transaction with its tip above its fee cap, encoded by hand: viem and ethereumjs both
 * refuse to build one (the signature is a stand-in: the fee check comes first).
 */
function tipAboveFeeCap(nonce: number): string {
  const fields = [BigInt(chainId), BigInt(nonce), 200n * GWEI, 100n * GWEI, 21_000n, TO, 1n, '0x', [], 0n, 1n, 1n]
  const body = RLP.encode(fields.map((f) => (typeof f === 'bigint' ? bigIntToUnpaddedBytes(f) : f)) as never)
  return bytesToHex(Uint8Array.from([2, ...body]))
}
const send = (raw: string) => rpc(edge.url, 'eth_sendRawTransaction', [raw])

/** sender → nonce → hash, lowercased, from a txpool_content sub-pool. */
const hashes = (pool: Record<string, Record<string, { hash: string }>>) =>
  Object.fromEntries(
    Object.entries(pool).map(([sender, byNonce]) => [
      sender.toLowerCase(),
      Object.fromEntries(Object.entries(byNonce).map(([n, tx]) => [n, tx.hash])),
    ]),
  )

beforeAll(async () => {
  anvil = await startAnvil({ args: ['--no-mining'] })
  await rpcResult(anvil.url, 'evm_mine', []) // state from block 1 on verifies
  chainId = Number(await rpcResult(anvil.url, 'eth_chainId', []))
  proxy = await createProxy(anvil.url)
  edge = await startEdgetrace({
    upstream: proxy.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'txpool', 'debug', 'trace'],
  })
}, 60_000)

afterAll(async () => {
  await edge?.close()
  await proxy?.stop()
  await anvil?.stop()
})

describe('txpool on anvil with automine off', () => {
  it('keeps contiguous nonces pending and a gap queued, as anvil does; mining drains what was pending', async () => {
    const sent = []
    for (const nonce of [0, 1, 3]) {
      const answer = await send(await sign(alice, nonce))
      expect(answer.error).toBeUndefined()
      sent.push(answer.result as string)
    }
    const ours = await rpcResult(edge.url, 'txpool_content', [])
    const theirs = await rpcResult(anvil.url, 'txpool_content', [])
    expect(Object.keys(ours).sort()).toEqual(['baseFee', 'pending', 'queued'])
    expect(hashes(ours.pending)).toEqual(hashes(theirs.pending))
    expect(hashes(ours.queued)).toEqual(hashes(theirs.queued))
    expect(hashes(ours.pending)).toEqual({ [alice!.address.toLowerCase()]: { 0: sent[0], 1: sent[1] } })
    expect(hashes(ours.queued)).toEqual({ [alice!.address.toLowerCase()]: { 3: sent[2] } })
    // The reference's shapes: checksummed sender keys, decimal nonce keys, null block fields, no gasPrice for type 2.
    const tx = ours.pending[alice!.address][0]
    expect(tx).toMatchObject({
      blockHash: null,
      blockNumber: null,
      transactionIndex: null,
      hash: sent[0],
      nonce: '0x0',
    })
    expect(tx).not.toHaveProperty('gasPrice')
    expect(await rpcResult(edge.url, 'txpool_status', [])).toEqual({ pending: '0x2', baseFee: '0x0', queued: '0x1' })
    // The reference has no txpool_inspect (commented out there): method not found.
    expect((await rpc(edge.url, 'txpool_inspect', [])).error).toEqual({
      code: -32601,
      message: 'the method txpool_inspect does not exist/is not available',
    })
    expect(hashes({ x: (await rpcResult(edge.url, 'txpool_contentFrom', [alice!.address])).queued })).toEqual({
      x: { 3: sent[2] },
    })

    await rpcResult(anvil.url, 'evm_mine', [])
    expect(await rpcResult(edge.url, 'txpool_status', [])).toEqual({ pending: '0x0', baseFee: '0x0', queued: '0x1' })
    // The gap filled: nonce 2 sent, then 2 and 3 are pending.
    expect((await send(await sign(alice, 2))).error).toBeUndefined()
    expect(await rpcResult(edge.url, 'txpool_status', [])).toEqual({ pending: '0x2', baseFee: '0x0', queued: '0x0' })
    await rpcResult(anvil.url, 'evm_mine', [])
    expect(await rpcResult(edge.url, 'txpool_status', [])).toEqual({ pending: '0x0', baseFee: '0x0', queued: '0x0' })
  })

  it('replaces a transaction only for 10% more tip and fee cap', async () => {
    const nonce = Number(await rpcResult(edge.url, 'eth_getTransactionCount', [bob!.address, 'latest']))
    const first = await send(await sign(bob, nonce))
    expect(first.error).toBeUndefined()
    const cheap = await send(
      await sign(bob, nonce, { maxFeePerGas: 105n * GWEI, maxPriorityFeePerGas: (105n * GWEI) / 100n }),
    )
    expect(cheap.error).toEqual({ code: -32000, message: 'replacement transaction underpriced' })
    const again = await send(await sign(bob, nonce))
    expect(again.error).toEqual({ code: -32000, message: 'already known' })
    const better = await send(
      await sign(bob, nonce, { maxFeePerGas: 110n * GWEI, maxPriorityFeePerGas: (11n * GWEI) / 10n }),
    )
    expect(better.error).toBeUndefined()
    const pending = (await rpcResult(edge.url, 'txpool_contentFrom', [bob!.address])).pending
    expect(Object.values(pending).map((tx) => (tx as { hash: string }).hash)).toEqual([better.result])
    const theirs = await rpcResult(anvil.url, 'txpool_content', [])
    expect(hashes(theirs.pending)[bob!.address.toLowerCase()]).toEqual({ [nonce]: better.result })
    await rpcResult(anvil.url, 'evm_mine', [])
  })

  it('moves a transaction whose fee cap the next base fee passed to the baseFee sub-pool (anvil has none: it drops it)', async () => {
    const nonce = Number(await rpcResult(edge.url, 'eth_getTransactionCount', [carol!.address, 'latest']))
    const low = await send(await sign(carol, nonce, { maxFeePerGas: 100n * GWEI }))
    expect(low.error).toBeUndefined()
    expect(await rpcResult(edge.url, 'txpool_status', [])).toEqual({ pending: '0x1', baseFee: '0x0', queued: '0x0' })
    // A block at 200 gwei leaves it out; the next base fee, computed from that verified header, stays above its cap.
    await rpcResult(anvil.url, 'anvil_setNextBlockBaseFeePerGas', [`0x${(200n * GWEI).toString(16)}`])
    await rpcResult(anvil.url, 'evm_mine', [])
    expect(await rpcResult(edge.url, 'txpool_status', [])).toEqual({ pending: '0x0', baseFee: '0x1', queued: '0x0' })
    const content = await rpcResult(edge.url, 'txpool_content', [])
    expect(hashes(content.baseFee)).toEqual({ [carol!.address.toLowerCase()]: { [nonce]: low.result } })
    // anvil (no baseFee pool) dropped it when the base fee passed its cap; the reference's pool
    // keeps it, and so does edgetrace's — it is this daemon's own, sent through it.
    expect(JSON.stringify(await rpcResult(anvil.url, 'txpool_content', []))).not.toContain(low.result.slice(2))
    // A replacement paying more than the base fee makes it pending again.
    const high = await send(await sign(carol, nonce, { maxFeePerGas: 400n * GWEI, maxPriorityFeePerGas: 2n * GWEI }))
    expect(high.error).toBeUndefined()
    expect(await rpcResult(edge.url, 'txpool_status', [])).toEqual({ pending: '0x1', baseFee: '0x0', queued: '0x0' })
    await rpcResult(anvil.url, 'evm_mine', [])
    expect(await rpcResult(edge.url, 'txpool_status', [])).toEqual({ pending: '0x0', baseFee: '0x0', queued: '0x0' })
  })
})

describe('the pending tag', () => {
  it('runs eth_call, eth_estimateGas, debug_traceCall and trace_call on the head with the pool applied, as anvil does', async () => {
    const fresh = '0x00000000000000000000000000000000000abcde'
    const nonce = Number(await rpcResult(edge.url, 'eth_getTransactionCount', [alice!.address, 'latest']))
    const funding = await send(
      await sign(alice, nonce, { to: fresh, value: 5n * 10n ** 18n, maxFeePerGas: 1000n * GWEI }),
    )
    expect(funding.error).toBeUndefined()
    const spend = { from: fresh, to: TO, value: `0x${(10n ** 18n).toString(16)}` }
    // On the head, the fresh account has nothing; with the pool applied, 5 ether.
    const latest = await rpc(edge.url, 'eth_call', [spend, 'latest'])
    expect(latest.error?.message).toMatch(/^insufficient funds for gas \* price \+ value/)
    expect(await rpc(edge.url, 'eth_call', [spend, 'pending'])).toEqual(
      await rpc(anvil.url, 'eth_call', [spend, 'pending']),
    )
    expect(await rpcResult(edge.url, 'eth_call', [spend, 'pending'])).toBe('0x')
    expect(await rpcResult(edge.url, 'eth_estimateGas', [spend, 'pending'])).toBe(
      await rpcResult(anvil.url, 'eth_estimateGas', [spend, 'pending']),
    )
    // The calls above ran on forks of one pending state: none of their transfers is seen here.
    const prestate = await rpcResult(edge.url, 'debug_traceCall', [spend, 'pending', { tracer: 'prestateTracer' }])
    expect(BigInt(prestate[fresh].balance)).toBe(5n * 10n ** 18n)
    // The pool changed: the pending state is built again, with the new transaction.
    const more = await send(
      await sign(alice, nonce + 1, { to: fresh, value: 2n * 10n ** 18n, maxFeePerGas: 1000n * GWEI }),
    )
    expect(more.error).toBeUndefined()
    const again = await rpcResult(edge.url, 'debug_traceCall', [spend, 'pending', { tracer: 'prestateTracer' }])
    expect(BigInt(again[fresh].balance)).toBe(7n * 10n ** 18n)
    const traced = await rpcResult(edge.url, 'trace_call', [spend, ['trace'], 'pending'])
    expect(traced.trace[0]).toMatchObject({ action: { from: fresh, to: TO, value: spend.value }, type: 'call' })
    await rpcResult(anvil.url, 'evm_mine', [])
  })
})

describe('the upstream’s pending feed (WebSocket)', () => {
  it('takes in each transaction the feed announces, checked, with the upstream’s txpool_content out of the way', async () => {
    const ws = await startEdgetrace({
      upstream: anvil.url.replace(/^http/, 'ws'),
      port: 0,
      hardfork: 'prague',
      api: ['eth', 'txpool'],
    })
    try {
      ws.engine.upstreamPool.offered = false // only the feed can tell it of what others send
      await new Promise((done) => setTimeout(done, 300)) // the subscription is made as the namespace is served
      const nonce = Number(await rpcResult(anvil.url, 'eth_getTransactionCount', [bob!.address, 'latest']))
      // Sent to anvil, not through edgetrace (anvil announces executable transactions only).
      const raw = await sign(bob, nonce, { maxFeePerGas: 1000n * GWEI })
      const hash = await rpcResult(anvil.url, 'eth_sendRawTransaction', [raw])
      let pending: Record<string, Record<string, { hash: string }>> = {}
      for (let i = 0; i < 50 && !JSON.stringify(pending).includes(hash); i++) {
        await new Promise((done) => setTimeout(done, 100))
        pending = (await rpcResult(ws.url, 'txpool_content', [])).pending
      }
      expect(hashes(pending)[bob!.address.toLowerCase()]).toEqual({ [nonce]: hash })
      expect(ws.engine.upstreamPool.dropped).toBe(0)
    } finally {
      await ws.close()
      await rpcResult(anvil.url, 'evm_mine', [])
    }
  })
})

describe('bad raw transactions: a clear error, and nothing forwarded', () => {
  const forwarded = () => proxy.log.filter((c) => c.method === 'eth_sendRawTransaction').length

  it('refuses each with geth’s words before the upstream hears of it', async () => {
    const nonce = Number(await rpcResult(edge.url, 'eth_getTransactionCount', [alice!.address, 'latest']))
    const before = forwarded()
    const cases: [string, string | RegExp][] = [
      ['0x02f8', /^transaction could not be decoded/],
      [
        await sign(alice, nonce, { chainId: chainId + 1 }),
        `invalid chain id for signer: have ${chainId + 1} want ${chainId}`,
      ],
      [
        await sign(alice, Math.max(nonce - 1, 0)),
        `nonce too low: address ${alice!.address}, tx: ${Math.max(nonce - 1, 0)} state: ${nonce}`,
      ],
      [
        await sign(alice, nonce, { value: 10n ** 30n }),
        /^insufficient funds for gas \* price \+ value: address 0x[0-9a-fA-F]{40} have \d+ want \d+$/,
      ],
      [await sign(alice, nonce, { gas: 20_000n }), 'intrinsic gas too low: gas 20000, minimum needed 21000'],
      [tipAboveFeeCap(nonce), 'max priority fee per gas higher than max fee per gas'],
      [await sign(alice, nonce, { gas: 10n ** 9n }), 'exceeds block gas limit'],
    ]
    // A bad signature: s flipped to an invalid value in an otherwise good transaction.
    const good = await sign(alice, nonce)
    cases.push([`${good.slice(0, -64)}${'f'.repeat(64)}`, /invalid sender|could not be decoded/])
    for (const [raw, message] of cases) {
      const answer = await send(raw)
      expect(answer.error?.code, raw).toBe(-32000)
      if (typeof message === 'string') expect(answer.error?.message).toBe(message)
      else expect(answer.error?.message).toMatch(message)
    }
    expect(forwarded()).toBe(before)
    expect(await rpcResult(edge.url, 'txpool_status', [])).toMatchObject({ pending: '0x0' })
  })
})

describe('a tampering upstream', () => {
  it('drops a pool entry whose hash or sender does not check, and never serves it', async () => {
    const nonce = Number(await rpcResult(anvil.url, 'eth_getTransactionCount', [carol!.address, 'latest']))
    const raw = await sign(carol, nonce, { maxFeePerGas: 300n * GWEI })
    const hash = await rpcResult(anvil.url, 'eth_sendRawTransaction', [raw])
    proxy.hooks.transform = (call, result) => {
      if (call.method !== 'txpool_content') return result
      const content = structuredClone(result) as Record<string, Record<string, Record<string, Record<string, string>>>>
      for (const bySender of Object.values(content.pending ?? {}))
        for (const tx of Object.values(bySender)) if (tx.hash === hash) tx.value = '0x2' // fields no longer hash to it
      return content
    }
    try {
      await new Promise((done) => setTimeout(done, 1100)) // past the pool's re-read interval
      const content = await rpcResult(edge.url, 'txpool_content', [])
      expect(JSON.stringify(content)).not.toContain(hash.slice(2))
      expect(edge.engine.upstreamPool.dropped).toBeGreaterThanOrEqual(1)
    } finally {
      delete proxy.hooks.transform
    }
    await new Promise((done) => setTimeout(done, 1100))
    const honest = await rpcResult(edge.url, 'txpool_content', [])
    expect(hashes(honest.pending)[carol!.address.toLowerCase()]).toMatchObject({ [nonce]: hash })
  })
})

/**
 * A blob transaction in its network form, signed by `account`: the body viem signs, wrapped with the
 * sidecar (version 0: one proof per blob; version 1, Osaka: 128 cell proofs per blob, EIP-7594).
 */
async function blobTransaction(
  url: string,
  account: typeof alice,
  sidecar: { version: 0 | 1; blob: string; commitment: string; proofs: string[] },
) {
  const id = Number(await rpcResult(url, 'eth_chainId', []))
  const nonce = Number(await rpcResult(url, 'eth_getTransactionCount', [account!.address, 'pending']))
  const hash = sha256(hexToBytes(sidecar.commitment as `0x${string}`))
  hash[0] = 1
  const body = await account!.signTransaction({
    chainId: id,
    type: 'eip4844',
    to: TO,
    nonce,
    gas: 21_000n,
    maxFeePerGas: 1000n * GWEI, // above what an earlier test pushed the base fee to
    maxPriorityFeePerGas: GWEI,
    maxFeePerBlobGas: GWEI,
    blobVersionedHashes: [bytesToHex(hash)],
  } as never)
  const fields = RLP.decode(hexToBytes(body as `0x${string}`).subarray(1))
  const lists = [[sidecar.blob], [sidecar.commitment], sidecar.proofs].map((l) =>
    l.map((h) => hexToBytes(h as `0x${string}`)),
  )
  const parts = sidecar.version === 1 ? [fields, Uint8Array.of(1), ...lists] : [fields, ...lists]
  return bytesToHex(Uint8Array.from([3, ...RLP.encode(parts as never)]))
}

/**
 * After anvil mined a blob transaction: it left the pool (the sender's nonce, proven at the new head,
 * passed it). Its block does not verify — anvil's documented deviation (docs/trust.md): its
 * `transactionsRoot` is over the network form, blobs included — so edgetrace refuses to read it.
 */
async function expectMinedOnAnvil(url: string, sender: string, hash: string) {
  expect(await rpcResult(url, 'txpool_contentFrom', [sender])).toEqual({ pending: {}, baseFee: {}, queued: {} })
  expect((await rpc(url, 'eth_getTransactionReceipt', [hash])).error?.message).toMatch(
    /^header does not verify: block \d+: the upstream's transactions hash to another root than the header's$/,
  )
}

describe('blob transactions: the sidecar’s KZG proofs checked before the upstream hears of it', () => {
  const forwarded = (p: Proxy) => p.log.filter((c) => c.method === 'eth_sendRawTransaction').length
  // The consensus-spec reference vectors (test/fixtures/c-kzg-4844): a blob with its commitment and proof.
  const v0 = readKzgCase('verify_blob_kzg_proof/kzg-mainnet/verify_blob_kzg_proof_case_correct_proof_3')
    .input as Record<string, string>
  const wrong = readKzgCase('verify_blob_kzg_proof/kzg-mainnet/verify_blob_kzg_proof_case_correct_proof_4').input
    .proof as string

  it('version 0 (Prague): a good sidecar is forwarded and pooled; a wrong proof is refused, as anvil refuses it', async () => {
    const before = forwarded(proxy)
    const bad = await blobTransaction(anvil.url, bob, {
      version: 0,
      blob: v0.blob!,
      commitment: v0.commitment!,
      proofs: [wrong],
    })
    const refused = await send(bad)
    expect(refused.error).toEqual({
      code: -32000,
      message: 'KZG verification error: invalid blob proof: blob 0: the proof does not verify',
    })
    expect(forwarded(proxy)).toBe(before)
    expect((await rpc(anvil.url, 'eth_sendRawTransaction', [bad])).error?.message).toMatch(/KZG/)
    // A version-1 sidecar before Osaka: geth's words.
    const early = await blobTransaction(anvil.url, bob, {
      version: 1,
      blob: v0.blob!,
      commitment: v0.commitment!,
      proofs: [v0.proof!],
    })
    expect((await send(early)).error?.message).toBe('invalid sidecar version pre-osaka: 1')

    const good = await send(await blobTransaction(anvil.url, bob, { version: 0, ...v0, proofs: [v0.proof!] } as never))
    expect(good.error).toBeUndefined()
    expect(forwarded(proxy)).toBe(before + 1)
    const pool = await rpcResult(edge.url, 'txpool_contentFrom', [bob!.address])
    expect(Object.values(pool.pending).map((tx) => (tx as { hash: string; type: string }).type)).toEqual(['0x3'])
    expect(JSON.stringify(await rpcResult(anvil.url, 'txpool_content', []))).toContain(good.result.slice(2))
    await rpcResult(anvil.url, 'evm_mine', [])
    await expectMinedOnAnvil(edge.url, bob!.address, good.result)
  }, 60_000)

  it('version 1 (Osaka): 128 cell proofs per blob, checked in one batch; one out of place is refused', async () => {
    const osaka = await startAnvil({ args: ['--no-mining'], hardfork: 'osaka' })
    const osakaProxy = await createProxy(osaka.url)
    const node = await startEdgetrace({ upstream: osakaProxy.url, port: 0, hardfork: 'osaka', api: ['eth', 'txpool'] })
    try {
      await rpcResult(osaka.url, 'evm_mine', [])
      const cells = readKzgCase('compute_cells_and_kzg_proofs/kzg-mainnet/compute_cells_and_kzg_proofs_case_valid_3')
      const commitment = readKzgCase('blob_to_kzg_commitment/kzg-mainnet/blob_to_kzg_commitment_case_valid_blob_3')
      const sidecar = {
        version: 1 as const,
        blob: cells.input.blob as string,
        commitment: commitment.output as string,
        proofs: (cells.output as string[][])[1]!,
      }
      const swapped = [sidecar.proofs[1]!, sidecar.proofs[0]!, ...sidecar.proofs.slice(2)]
      const bad = await blobTransaction(osaka.url, carol, { ...sidecar, proofs: swapped })
      expect((await rpc(node.url, 'eth_sendRawTransaction', [bad])).error).toEqual({
        code: -32000,
        message: 'KZG verification error: blob 0: its cell proofs do not verify',
      })
      expect(forwarded(osakaProxy)).toBe(0)
      expect((await rpc(osaka.url, 'eth_sendRawTransaction', [bad])).error?.message).toBe('invalid KZG proof')
      const legacy = await blobTransaction(osaka.url, carol, { ...sidecar, version: 0, proofs: [sidecar.proofs[0]!] })
      expect((await rpc(node.url, 'eth_sendRawTransaction', [legacy])).error?.message).toBe(
        'invalid sidecar version post-osaka: 0',
      )

      const good = await rpc(node.url, 'eth_sendRawTransaction', [await blobTransaction(osaka.url, carol, sidecar)])
      expect(good.error).toBeUndefined()
      expect(forwarded(osakaProxy)).toBe(1)
      expect(await rpcResult(node.url, 'txpool_status', [])).toEqual({ pending: '0x1', baseFee: '0x0', queued: '0x0' })
      await rpcResult(osaka.url, 'evm_mine', [])
      await expectMinedOnAnvil(node.url, carol!.address, good.result)
    } finally {
      await node.close()
      await osakaProxy.stop()
      await osaka.stop()
    }
  }, 90_000)
})

describe('EIP-7702: geth’s limits on delegated accounts and authorities', () => {
  // Fee caps above what an earlier test pushed the base fee to.
  const RICH = { maxFeePerGas: 1000n * GWEI }
  const forwarded = () => proxy.log.filter((c) => c.method === 'eth_sendRawTransaction').length
  const nonceOf = async (who: typeof alice, tag = 'latest') =>
    Number(await rpcResult(edge.url, 'eth_getTransactionCount', [who!.address, tag]))
  async function setCode(authority: typeof alice, nonce: number) {
    const authorization = await authority!.signAuthorization!({ chainId, address: TO, nonce: await nonceOf(authority) })
    return sign(alice, nonce, { ...RICH, type: 'eip7702', gas: 100_000n, authorizationList: [authorization] })
  }

  it('one executable transaction for an account delegated or authorizing; no authority with two pooled', async () => {
    const aliceNonce = await nonceOf(alice)
    const daveNonce = await nonceOf(dave)
    // dave authorizes a delegation in alice's set-code transaction: from then on, one in flight for dave.
    expect((await send(await setCode(dave, aliceNonce))).error).toBeUndefined()
    const before = forwarded()
    expect((await send(await sign(dave, daveNonce + 1, RICH))).error).toEqual({
      code: -32000,
      message: 'gapped-nonce tx from delegated accounts',
    })
    // erin has two transactions pooled: her authorization is refused.
    const erinNonce = await nonceOf(erin)
    expect((await send(await sign(erin, erinNonce, RICH))).error).toBeUndefined()
    expect((await send(await sign(erin, erinNonce + 1, RICH))).error).toBeUndefined()
    const afterErin = forwarded()
    expect((await send(await setCode(erin, aliceNonce + 1))).error).toEqual({
      code: -32000,
      message: 'authority already reserved',
    })
    expect(forwarded()).toBe(afterErin)
    expect(afterErin).toBe(before + 2)

    // Mined: dave's account now holds the delegation (0xef0100 ‖ address), proven at the head.
    await rpcResult(anvil.url, 'evm_mine', [])
    expect(await rpcResult(edge.url, 'eth_getCode', [dave!.address, 'latest'])).toBe(`0xef0100${TO.slice(2)}`)
    const next = await nonceOf(dave)
    expect(next).toBe(daveNonce + 1) // the authorization used dave's nonce
    expect((await send(await sign(dave, next, RICH))).error).toBeUndefined()
    expect((await send(await sign(dave, next + 1, RICH))).error).toEqual({
      code: -32000,
      message: 'in-flight transaction limit reached for delegated accounts',
    })
    // A replacement of the one in flight is still welcome.
    const bumped = await send(await sign(dave, next, { maxFeePerGas: 2000n * GWEI, maxPriorityFeePerGas: 2n * GWEI }))
    expect(bumped.error).toBeUndefined()
    await rpcResult(anvil.url, 'evm_mine', [])
    expect(await rpcResult(edge.url, 'txpool_status', [])).toEqual({ pending: '0x0', baseFee: '0x0', queued: '0x0' })
  })
})
