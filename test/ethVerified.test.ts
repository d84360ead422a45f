import { beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import type { Proxy } from './src/createProxy.js'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { sha256 } from '@noble/hashes/sha2.js'
import { DEV_ACCOUNT, rpc, rpcResult, waitForReceipt } from './src/rpc.js'
import { flipHexDigit, useDevnetBehindProxy } from './src/useDevnetBehindProxy.js'
import { verificationErrorText } from './src/verificationErrorText.js'

// The eth_* reads edgetrace answers from verified data: each answer equals anvil's own (anvil is a
// real node), and an upstream that lies about any part of it (a tampering proxy in front of anvil)
// gets a -32000 error naming what did not verify — never a result — while the server keeps serving.

const env = useDevnetBehindProxy()
let devnet: Devnet
let proxy: Proxy
let head: { number: string; hash: string }
const edgeVia = env.edgeVia
const flip = flipHexDigit

const ZERO_SLOT = `0x${'0'.repeat(64)}`

/** A verification failure: -32000, the words given, and the server still answering. */
async function expectRefused(url: string, method: string, params: unknown[], ...words: string[]) {
  const { result, error } = await rpc(url, method, params)
  expect(result).toBeUndefined()
  expect(error?.code).toBe(-32000)
  for (const w of words) expect(verificationErrorText(error)).toContain(w)
  expect(await rpcResult(url, 'eth_chainId', [])).toMatch(/^0x/)
  expect(await rpcResult(url, 'eth_blockNumber', [])).toMatch(/^0x/)
  return error
}

beforeAll(async () => {
  ;({ devnet, proxy, head } = env)
})

/** A contract of the devnet with storage set (slot 0 non-zero at the head). */
async function storedContract(): Promise<{ address: string; slot: string }> {
  for (const address of Object.values(devnet.contracts)) {
    const value = await rpcResult(devnet.anvil.url, 'eth_getStorageAt', [address, ZERO_SLOT, head.hash])
    if (BigInt(value) !== 0n) return { address, slot: ZERO_SLOT }
  }
  throw new Error('no devnet contract has slot 0 set')
}

describe('state reads: the same answers as anvil, verified', () => {
  it('eth_getBalance, eth_getTransactionCount, eth_getCode, eth_getStorageAt at every kind of block parameter', async () => {
    const e = await edgeVia()
    const { address, slot } = await storedContract()
    const anvil = devnet.anvil.url
    for (const block of [head.number, head.hash, { blockHash: head.hash }, { blockNumber: head.number }, 'latest']) {
      for (const who of [DEV_ACCOUNT, address, '0x00000000000000000000000000000000000000aa']) {
        for (const method of ['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode']) {
          expect(await rpcResult(e.url, method, [who, block]), `${method} ${who}`).toBe(
            await rpcResult(anvil, method, [who, block]),
          )
        }
      }
      expect(await rpcResult(e.url, 'eth_getStorageAt', [address, slot, block])).toBe(
        await rpcResult(anvil, 'eth_getStorageAt', [address, slot, block]),
      )
    }
    // A short storage key is read as geth reads it.
    expect(await rpcResult(e.url, 'eth_getStorageAt', [address, '0x0', head.hash])).toBe(
      await rpcResult(anvil, 'eth_getStorageAt', [address, ZERO_SLOT, head.hash]),
    )
    expect(proxy.calls.get('eth_getBalance')).toBeUndefined()
    expect(proxy.calls.get('eth_getProof')).toBeGreaterThan(0)
  })

  it('eth_getStorageValues: {address: [slots]} → {address: [32-byte values]}, within geth limits', async () => {
    const e = await edgeVia()
    const { address } = await storedContract()
    const slots = [ZERO_SLOT, `0x${'0'.repeat(63)}1`]
    const expected: Record<string, string[]> = {
      [address.toLowerCase()]: await Promise.all(
        slots.map((s) => rpcResult(devnet.anvil.url, 'eth_getStorageAt', [address, s, head.hash])),
      ),
      [DEV_ACCOUNT]: [ZERO_SLOT],
    }
    expect(
      await rpcResult(e.url, 'eth_getStorageValues', [{ [address]: slots, [DEV_ACCOUNT]: [ZERO_SLOT] }, head.hash]),
    ).toEqual(expected)
    const tooMany = Array.from({ length: 1025 }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`)
    expect((await rpc(e.url, 'eth_getStorageValues', [{ [address]: tooMany }, head.hash])).error).toEqual({
      code: -38026,
      message: 'too many slots (max 1024)',
    })
    expect((await rpc(e.url, 'eth_getStorageValues', [{}, head.hash])).error).toEqual({
      code: -32602,
      message: 'empty request',
    })
    expect((await rpc(e.url, 'eth_getStorageValues', [{ [address]: ['0x0'] }])).error.code).toBe(-32602)
  })

  it("eth_getProof: the upstream's proof once verified, with anvil's fields", async () => {
    const e = await edgeVia()
    const { address, slot } = await storedContract()
    for (const [who, keys] of [
      [address, [slot, `0x${'0'.repeat(63)}7`]],
      [DEV_ACCOUNT, []],
      ['0x00000000000000000000000000000000000000aa', [slot]],
    ] as const) {
      const mine = await rpcResult(e.url, 'eth_getProof', [who, keys, head.hash])
      const theirs = await rpcResult(devnet.anvil.url, 'eth_getProof', [who, keys, head.hash])
      expect(mine, who).toEqual(theirs)
    }
    // geth's key echo: a key shorter than 32 bytes comes back as a quantity.
    const short = await rpcResult(e.url, 'eth_getProof', [address, ['0x0'], head.hash])
    expect(short.storageProof[0].key).toBe('0x0')
  })

  it('argument errors are -32602 naming the argument; an unknown block is geth’s error', async () => {
    const e = await edgeVia()
    expect((await rpc(e.url, 'eth_getBalance', ['0x12', 'latest'])).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('invalid argument 0'),
    })
    // The reference daemon's words for a bad storage key (rpc/jsonrpc/eth_accounts.go).
    expect((await rpc(e.url, 'eth_getStorageAt', [DEV_ACCOUNT, `0x${'1'.repeat(66)}`, 'latest'])).error).toEqual({
      code: -32602,
      message: 'hex string too long, want at most 32 bytes',
    })
    expect((await rpc(e.url, 'eth_getStorageAt', [DEV_ACCOUNT, '0xzz', 'latest'])).error).toEqual({
      code: -32602,
      message: 'unable to decode storage key: hex string invalid',
    })
    // An absent block parameter is `latest`, as in the reference daemon (blockOrLatest) and geth.
    for (const method of ['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode'])
      expect(await rpc(e.url, method, [DEV_ACCOUNT]), method).toEqual(await rpc(e.url, method, [DEV_ACCOUNT, 'latest']))
    expect((await rpc(e.url, 'eth_getBalance', [DEV_ACCOUNT, '0xffffff'])).error).toEqual({
      code: -32000,
      message: 'header not found',
    })
    expect((await rpc(e.url, 'eth_getBalance', [DEV_ACCOUNT, `0x${'ab'.repeat(32)}`])).error).toEqual({
      code: -32000,
      message: 'header for hash not found',
    })
  })

  it('--unverified passes them through as they were sent', async () => {
    const e = await edgeVia({ refuseMethods: ['eth_getProof'] }, { unverified: true })
    expect(await rpcResult(e.url, 'eth_getBalance', [DEV_ACCOUNT, head.number])).toBe(
      await rpcResult(devnet.anvil.url, 'eth_getBalance', [DEV_ACCOUNT, head.number]),
    )
    expect(proxy.log.at(-1)).toMatchObject({ method: 'eth_getBalance', params: [DEV_ACCOUNT, head.number] })
  })
})

describe('state reads: a lying upstream is refused', () => {
  const proofOf = (who: string, change: (r: any) => any) => (c: { method: string; params: unknown[] }, r: any) =>
    c.method === 'eth_getProof' && String(c.params[0]).toLowerCase() === who.toLowerCase() ? change(r) : r

  it('an altered balance or nonce', async () => {
    const at = `block ${BigInt(head.number)} ${head.hash}`
    let e = await edgeVia({ transform: proofOf(DEV_ACCOUNT, (r) => ({ ...r, balance: '0x1' })) })
    await expectRefused(e.url, 'eth_getBalance', [DEV_ACCOUNT, head.hash], 'account fields differ', at, DEV_ACCOUNT)
    await env.closeEdge()
    e = await edgeVia({ transform: proofOf(DEV_ACCOUNT, (r) => ({ ...r, nonce: '0x99' })) })
    await expectRefused(e.url, 'eth_getTransactionCount', [DEV_ACCOUNT, head.hash], 'account fields differ', at)
  })

  it('altered code', async () => {
    const { address } = await storedContract()
    const e = await edgeVia({ transform: (c, r) => (c.method === 'eth_getCode' ? '0x60016000f3' : r) })
    await expectRefused(e.url, 'eth_getCode', [address, head.hash], 'code does not match the account codeHash', address)
  })

  it('an altered storage value, in eth_getStorageAt, eth_getStorageValues and eth_getProof', async () => {
    const { address, slot } = await storedContract()
    const e = await edgeVia({
      transform: proofOf(address, (r) => ({
        ...r,
        storageProof: r.storageProof.map((s: any) => ({ ...s, value: '0x2b' })),
      })),
    })
    for (const [method, params] of [
      ['eth_getStorageAt', [address, slot, head.hash]],
      ['eth_getStorageValues', [{ [address]: [slot] }, head.hash]],
      ['eth_getProof', [address, [slot], head.hash]],
    ] as const) {
      await expectRefused(
        e.url,
        method,
        [...params],
        'storage value differs from what the proof proves',
        `slot ${slot}`,
      )
    }
  })

  it('an altered proof node in eth_getProof (account and storage)', async () => {
    const { address, slot } = await storedContract()
    let e = await edgeVia({
      transform: proofOf(address, (r) => ({ ...r, accountProof: r.accountProof.map((n: string) => flip(n)) })),
    })
    await expectRefused(e.url, 'eth_getProof', [address, [], head.hash], 'account proof does not verify', address)
    await env.closeEdge()
    e = await edgeVia({
      transform: proofOf(address, (r) => ({
        ...r,
        storageProof: r.storageProof.map((s: any) => ({ ...s, proof: s.proof.map((n: string) => flip(n)) })),
      })),
    })
    await expectRefused(e.url, 'eth_getProof', [address, [slot], head.hash], 'storage proof does not verify', slot)
  })
})

/** Every block of the devnet that holds transactions, and an empty one. */
function devnetBlocks(): string[] {
  const numbers = new Set(devnet.transactions.map((t) => t.blockNumber))
  numbers.add(1)
  return [...numbers].sort((a, b) => a - b).map((n) => `0x${n.toString(16)}`)
}

describe('blocks: the same answers as anvil, verified', () => {
  it('eth_getBlockByNumber / ByHash, with transaction hashes and whole transactions (every transaction type)', async () => {
    const e = await edgeVia()
    const types = new Set<string>()
    for (const number of devnetBlocks()) {
      for (const fullTx of [false, true]) {
        const theirs = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', [number, fullTx])
        const mine = await rpcResult(e.url, 'eth_getBlockByNumber', [number, fullTx])
        expect(mine, `block ${number} fullTx ${fullTx}`).toEqual(normalizeBlock(theirs))
        expect(await rpcResult(e.url, 'eth_getBlockByHash', [theirs.hash, fullTx])).toEqual(mine)
        if (fullTx) for (const tx of theirs.transactions) types.add(tx.type)
      }
    }
    // The devnet sends no blob transaction (type 3).
    expect([...types].sort()).toEqual(['0x0', '0x1', '0x2', '0x4'])
  })

  it('transaction and uncle counts, transactions and uncles by index, and null for what is not there', async () => {
    const e = await edgeVia()
    const anvil = devnet.anvil.url
    const same = async (method: string, params: unknown[]) =>
      expect(await rpcResult(e.url, method, params), `${method} ${JSON.stringify(params)}`).toEqual(
        await rpcResult(anvil, method, params),
      )
    for (const number of devnetBlocks()) {
      const { hash, transactions } = await rpcResult(anvil, 'eth_getBlockByNumber', [number, false])
      await same('eth_getBlockTransactionCountByNumber', [number])
      await same('eth_getBlockTransactionCountByHash', [hash])
      await same('eth_getUncleCountByBlockNumber', [number])
      await same('eth_getUncleCountByBlockHash', [hash])
      for (let i = 0; i <= transactions.length; i++) {
        await same('eth_getTransactionByBlockNumberAndIndex', [number, `0x${i.toString(16)}`])
        await same('eth_getTransactionByBlockHashAndIndex', [hash, `0x${i.toString(16)}`])
      }
      await same('eth_getUncleByBlockNumberAndIndex', [number, '0x0'])
      await same('eth_getUncleByBlockHashAndIndex', [hash, '0x0'])
    }
    // A block the upstream does not know: null, as geth answers.
    const unknown = `0x${'ab'.repeat(32)}`
    for (const [method, params] of [
      ['eth_getBlockByNumber', ['0xffffff', false]],
      ['eth_getBlockByHash', [unknown, true]],
      ['eth_getBlockTransactionCountByHash', [unknown]],
      ['eth_getUncleCountByBlockNumber', ['0xffffff']],
      ['eth_getTransactionByBlockHashAndIndex', [unknown, '0x0']],
      ['eth_getUncleByBlockNumberAndIndex', ['0xffffff', '0x0']],
    ] as const) {
      expect(await rpc(e.url, method, [...params]), method).toMatchObject({ result: null })
    }
    expect((await rpc(e.url, 'eth_getBlockByNumber', ['0x1'])).error).toEqual({
      code: -32602,
      message: 'missing value for required argument 1',
    })
  })

  it('--unverified passes them through as they were sent', async () => {
    const e = await edgeVia({}, { unverified: true })
    const [number] = devnetBlocks().slice(-1)
    expect(await rpcResult(e.url, 'eth_getBlockByNumber', [number, true])).toEqual(
      await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', [number, true]),
    )
  })
})

describe('blocks: a lying upstream is refused', () => {
  const fullBlocks = (change: (b: any) => any) => (c: { method: string; params: unknown[] }, r: any) =>
    c.method === 'eth_getBlockByHash' && c.params[1] === true && r ? change(r) : r

  it("an altered transaction's value, in every block method that shows or counts transactions", async () => {
    const tx = devnet.transactions.find((t) => t.type === 2)!
    const { hash } = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', [
      `0x${tx.blockNumber.toString(16)}`,
      false,
    ])
    const e = await edgeVia({
      transform: fullBlocks((b) => ({
        ...b,
        transactions: b.transactions.map((t: any, i: number) => (i === 0 ? { ...t, value: '0x1234' } : t)),
      })),
    })
    const number = `0x${tx.blockNumber.toString(16)}`
    for (const [method, params] of [
      ['eth_getBlockByNumber', [number, true]],
      ['eth_getBlockByHash', [hash, false]],
      ['eth_getBlockTransactionCountByNumber', [number]],
      ['eth_getTransactionByBlockHashAndIndex', [hash, '0x0']],
      ['eth_getTransactionByBlockNumberAndIndex', [number, '0x0']],
    ] as const) {
      const error = await expectRefused(
        e.url,
        method,
        [...params],
        `block ${tx.blockNumber} ${hash}`,
        'transactions hash to',
      )
      expect(error.data).toMatchObject({ block: { hash } })
    }
  })

  it('an altered header field, a transaction left out, an uncle added, an altered withdrawal', async () => {
    const [number] = devnetBlocks().slice(-1)
    const cases: [string, (b: any) => any][] = [
      ['header fields', (b) => ({ ...b, gasUsed: '0x1' })],
      ['transactions', (b) => ({ ...b, transactions: b.transactions.slice(1) })],
      ['uncles', (b) => ({ ...b, uncles: [uncle.hash] })],
      [
        'withdrawals',
        (b) => ({ ...b, withdrawals: [{ index: '0x0', validatorIndex: '0x1', address: DEV_ACCOUNT, amount: '0x1' }] }),
      ],
    ]
    // The uncle the tampered block claims: a real header (block 1's), served as its uncle.
    const uncle = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', ['0x1', false])
    for (const [what, change] of cases) {
      const e = await edgeVia({
        transform: (c, r: any) =>
          c.method === 'eth_getBlockByHash' && c.params[1] === true && r
            ? change(r)
            : c.method === 'eth_getUncleByBlockHashAndIndex'
              ? uncle
              : r,
      })
      await expectRefused(e.url, 'eth_getBlockByNumber', [number, false], `the upstream's ${what}`)
      await expectRefused(e.url, 'eth_getUncleCountByBlockNumber', [number], `the upstream's ${what}`)
      await env.closeEdge()
    }
  })
})

/**
 * anvil's block as geth writes it:
 *  - anvil adds `totalDifficulty`, which geth's RPCMarshalBlock no longer writes (removed after the merge);
 *  - anvil's `size` leaves out the empty withdrawals list (one byte, 0xc0): geth's Block.Size() is the
 *    length of the block's RLP, where an empty non-nil withdrawals list is encoded (Go's rlp omits an
 *    optional field only when it is nil) — the RLP debug_getRawBlock returns, one byte longer.
 */
function normalizeBlock(block: any): any {
  const { totalDifficulty: _, ...rest } = block
  if (Array.isArray(rest.withdrawals) && rest.withdrawals.length === 0)
    rest.size = `0x${(BigInt(rest.size) + 1n).toString(16)}`
  return rest
}

describe('transactions and receipts: the same answers as anvil, verified', () => {
  it('eth_getTransactionByHash, eth_getTransactionReceipt and eth_getBlockReceipts for every devnet transaction', async () => {
    const e = await edgeVia()
    const anvil = devnet.anvil.url
    for (const { hash, label } of devnet.transactions) {
      expect(await rpcResult(e.url, 'eth_getTransactionByHash', [hash]), label).toEqual(
        await rpcResult(anvil, 'eth_getTransactionByHash', [hash]),
      )
      expect(await rpcResult(e.url, 'eth_getTransactionReceipt', [hash]), label).toEqual(
        normalizeReceipt(await rpcResult(anvil, 'eth_getTransactionReceipt', [hash])),
      )
    }
    for (const number of devnetBlocks()) {
      const { hash } = await rpcResult(anvil, 'eth_getBlockByNumber', [number, false])
      const theirs = (await rpcResult(anvil, 'eth_getBlockReceipts', [number])).map(normalizeReceipt)
      expect(await rpcResult(e.url, 'eth_getBlockReceipts', [number]), number).toEqual(theirs)
      expect(await rpcResult(e.url, 'eth_getBlockReceipts', [{ blockHash: hash }])).toEqual(theirs)
    }
    const unknown = `0x${'ab'.repeat(32)}`
    for (const method of ['eth_getTransactionByHash', 'eth_getTransactionReceipt', 'eth_getBlockReceipts'])
      expect(await rpc(e.url, method, [unknown]), method).toMatchObject({ result: null })
  })

  it("a blob transaction (type 3) of anvil's: its block is refused, since anvil's transactionsRoot commits to the blobs", async () => {
    const anvil = devnet.anvil.url
    // The zero blob: its KZG commitment and proof are both the point at infinity (0xc0 ‖ 47 zero bytes).
    const infinity = `0xc0${'00'.repeat(47)}`
    const versionedHash = `0x01${bytesToHex(sha256(hexToBytes(infinity as `0x${string}`))).slice(4)}`
    const hash = await rpcResult(anvil, 'eth_sendTransaction', [
      {
        from: DEV_ACCOUNT,
        to: '0x00000000000000000000000000000000000000bb',
        maxFeePerBlobGas: '0x10',
        blobVersionedHashes: [versionedHash],
        blobs: [`0x${'00'.repeat(131_072)}`],
        commitments: [infinity],
        proofs: [infinity],
      },
    ])
    const receipt = await waitForReceipt(anvil, hash)
    const block = await rpcResult(anvil, 'eth_getBlockByNumber', [receipt.blockNumber, false])
    expect(block.transactions).toEqual([hash])
    // EIP-4844: the transactions trie holds 0x03 ‖ rlp(payload), never the network wrapper with its
    // blobs. anvil's root is over what eth_getRawTransactionByHash gives, the wrapper (with the
    // blob): the canonical encoding does not hash to it, so no honest check can accept the block.
    const wrapped = await rpcResult(anvil, 'eth_getRawTransactionByHash', [hash])
    expect(await singleTxRoot(hexToBytes(wrapped))).toBe(block.transactionsRoot)
    const e = await edgeVia()
    for (const [method, params] of [
      ['eth_getTransactionByHash', [hash]],
      ['eth_getTransactionReceipt', [hash]],
      ['eth_getBlockByNumber', [receipt.blockNumber, true]],
    ] as const) {
      // Decoded (its sidecar, which anvil echoes, left aside) and refused by transactionsRoot, naming the block.
      await expectRefused(
        e.url,
        method,
        [...params],
        `block ${BigInt(receipt.blockNumber)} ${block.hash}`,
        'transactions hash to',
      )
    }
  })

  it('verified receipts are kept: asked again, the upstream is not asked for them again', async () => {
    const e = await edgeVia()
    const tx = devnet.transactions.find((t) => t.status === 'success')!
    const number = `0x${tx.blockNumber.toString(16)}`
    const first = await rpcResult(e.url, 'eth_getBlockReceipts', [number])
    const asked = proxy.calls.get('eth_getBlockReceipts') ?? 0
    expect(await rpcResult(e.url, 'eth_getBlockReceipts', [number])).toEqual(first)
    expect(await rpcResult(e.url, 'eth_getTransactionReceipt', [tx.hash])).toEqual(
      first.find((r: any) => r.transactionHash === tx.hash),
    )
    expect(proxy.calls.get('eth_getBlockReceipts') ?? 0).toBe(asked)
  })

  it('a pending transaction (no block yet) is re-hashed and its sender recovered', async () => {
    const anvil = devnet.anvil.url
    await rpcResult(anvil, 'evm_setAutomine', [false])
    try {
      const hash = await rpcResult(anvil, 'eth_sendTransaction', [
        { from: DEV_ACCOUNT, to: '0x00000000000000000000000000000000000000bb', value: '0x1' },
      ])
      let e = await edgeVia()
      // geth's RPCTransaction writes `blockTimestamp: null` for a pending transaction (the field has
      // no omitempty, like blockHash and blockNumber); anvil leaves it out.
      expect(await rpcResult(e.url, 'eth_getTransactionByHash', [hash])).toEqual({
        blockTimestamp: null,
        ...(await rpcResult(anvil, 'eth_getTransactionByHash', [hash])),
      })
      expect(await rpcResult(e.url, 'eth_getTransactionReceipt', [hash])).toBeNull()
      await env.closeEdge()
      e = await edgeVia({
        transform: (c, r: any) => (c.method === 'eth_getTransactionByHash' && r ? { ...r, value: '0x2' } : r),
      })
      await expectRefused(e.url, 'eth_getTransactionByHash', [hash], `pending transaction ${hash}`, 'hashes to')
    } finally {
      await rpcResult(anvil, 'evm_setAutomine', [true])
      await rpcResult(anvil, 'evm_mine', [])
    }
  })
})

describe('transactions and receipts: a lying upstream is refused', () => {
  it("a transaction's altered value, or a claimed index that does not hold it", async () => {
    const tx = devnet.transactions.find((t) => t.type === 2)!
    let e = await edgeVia({
      transform: (c, r: any) =>
        c.method === 'eth_getBlockByHash' && c.params[1] === true && r
          ? { ...r, transactions: r.transactions.map((t: any) => ({ ...t, value: '0x777' })) }
          : r,
    })
    await expectRefused(
      e.url,
      'eth_getTransactionByHash',
      [tx.hash],
      `block ${tx.blockNumber} `,
      'transactions hash to',
    )
    await expectRefused(
      e.url,
      'eth_getTransactionReceipt',
      [tx.hash],
      `block ${tx.blockNumber} `,
      'transactions hash to',
    )
    await env.closeEdge()
    e = await edgeVia({
      transform: (c, r: any) => (c.method === 'eth_getTransactionByHash' && r ? { ...r, transactionIndex: '0x7f' } : r),
    })
    const error = await expectRefused(
      e.url,
      'eth_getTransactionByHash',
      [tx.hash],
      'transaction does not verify',
      `block ${tx.blockNumber} `,
      `transaction ${tx.hash} is not at index 127`,
    )
    expect(error.data).toMatchObject({ block: { number: `0x${tx.blockNumber.toString(16)}` }, expectedHash: tx.hash })
  })

  it("a receipt's altered status, or a log's altered data: refused by receiptsRoot", async () => {
    const receipts = await Promise.all(
      devnet.transactions.map((t) => rpcResult(devnet.anvil.url, 'eth_getTransactionReceipt', [t.hash])),
    )
    const logged = receipts.find((r) => r.logs.length > 0)!
    const plain = devnet.transactions.find((t) => t.status === 'success')!
    const cases: [string, string, (r: any) => any][] = [
      [plain.hash, 'status', (r) => ({ ...r, status: r.status === '0x1' ? '0x0' : '0x1' })],
      [logged.transactionHash, 'log data', (r) => ({ ...r, logs: r.logs.map((l: any) => ({ ...l, data: '0x01' })) })],
    ]
    for (const [hash, what, change] of cases) {
      const e = await edgeVia({
        transform: (c, r: any) => {
          if (c.method === 'eth_getBlockReceipts' && Array.isArray(r))
            return r.map((x: any) => (x.transactionHash === hash ? change(x) : x))
          return c.method === 'eth_getTransactionReceipt' && r?.transactionHash === hash ? change(r) : r
        },
      })
      const block = receipts.find((r) => r.transactionHash === hash)
      const at = `block ${BigInt(block.blockNumber)} ${block.blockHash}`
      const error = await expectRefused(
        e.url,
        'eth_getTransactionReceipt',
        [hash],
        at,
        'receipts hash to',
        'receiptsRoot',
      )
      expect(error.data, what).toMatchObject({ block: { hash: block.blockHash } })
      await expectRefused(e.url, 'eth_getBlockReceipts', [block.blockNumber], at, 'receiptsRoot')
      await env.closeEdge()
    }
  })
})

/** The transactions root of a block of one transaction, encoded as given. */
async function singleTxRoot(encoded: Uint8Array): Promise<string> {
  const trie = new MerklePatriciaTrie()
  await trie.put(RLP.encode(0), encoded)
  return bytesToHex(trie.root())
}

/**
 * anvil's receipt as geth writes it (geth's marshalReceipt): anvil adds a receipt-level
 * `blockTimestamp` (a JSON number), which geth does not write (only its logs carry one), and a
 * `blobGasPrice` on every receipt, which geth writes for blob transactions (type 3) only.
 */
function normalizeReceipt(receipt: any): any {
  if (!receipt) return receipt
  const { blockTimestamp: _, ...rest } = receipt
  if (rest.type !== '0x3') delete rest.blobGasPrice
  return rest
}
