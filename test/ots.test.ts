import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import { startDevnet } from '../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { type ProxyHooks, createProxy } from './src/createProxy.js'
import { rpc, rpcResult } from './src/rpc.js'

/*
 * The ots namespace (Otterscan's API level 8) through edgetrace — traces from replays on verified
 * state, blocks and receipts from verified data — against anvil, which serves ots_* natively: every
 * method on every devnet transaction, block and contract. Where anvil departs from the reference
 * daemon (Erigon's rpcdaemon, /work/shared/reference/erigon-rpc.md §6, and its otterscan_*.go), anvil's
 * answer is normalised, each rule named with its evidence:
 *  O1. Blocks (ots_getBlockDetails, ots_getBlockTransactions): anvil writes the `logsBloom`; the reference
 *      sets it to null (otterscan_api.go delegateGetBlockByNumber: `response["logsBloom"] = nil`,
 *      "Explicitly drop unwanted fields"; reference §6).
 *  O2. anvil adds `totalDifficulty`, which the reference no longer writes (reference §6: "E24 adds
 *      totalDifficulty; E25+/RT does not") — as for eth_getBlockByNumber (test/ethVerified.test.ts).
 *  O3. anvil's `size` leaves out the empty withdrawals list (one byte, 0xc0); the block's RLP has it —
 *      as for eth_getBlockByNumber (test/ethVerified.test.ts, normalizeBlock).
 *  O4. ots_getBlockTransactions: anvil's `transactionCount` is the page's length; the reference's is the
 *      block's (delegateGetBlockByNumber sets `transactionCount = b.Transactions().Len()` before
 *      GetBlockTransactions crops the page). Checked against eth_getBlockTransactionCountByNumber.
 *  O5. ots_traceTransaction: anvil leaves out CREATE, CREATE2 and SELFDESTRUCT frames (a creation
 *      transaction answers `[]`); the reference lists them (otterscan_trace_transaction.go OnEnter: a
 *      TraceEntry for vm.CREATE, vm.CREATE2 and vm.SELFDESTRUCT, the top frame with its own kind). Those
 *      entries are left out of ours for the comparison with anvil's ots answer, and checked in full
 *      against anvil's own callTracer frames instead (the same frames, written by geth's callTracer).
 *  O6. ots_traceTransaction: anvil lists calls to precompiles; the reference skips them ("Ignore
 *      precompiles in the returned trace": `if !precompile { t.Results = append(...) }`).
 *  O7. ots_traceTransaction: anvil writes `"value": "0x0"` for STATICCALL and DELEGATECALL; the reference
 *      writes null (its TraceEntry for those has a nil *hexutil.Big; reference §6).
 *  O8. ots_getInternalOperations: anvil lists the transaction's own top frame (its value transfer or its
 *      creation); the reference lists inner frames only (otterscan_trace_operations.go OnEnter:
 *      `if depth == 0 { return }`; reference §6: "internal frames only, the root is not included").
 *  O10. ots_getBlockTransactions receipts: anvil keeps `logs` and `logsBloom`; the reference sets both to null
 *      (GetBlockTransactions: `marshalledRcpt["logs"] = nil`, `marshalledRcpt["logsBloom"] = nil`). anvil
 *      also adds a receipt-level `timestamp`, and `blobGasPrice` on every receipt; the reference's
 *      MarshalReceipt (eth/ethutils/receipt.go) writes neither, `blobGasPrice` only for blob
 *      transactions — as geth (test/ethVerified.test.ts, normalizeReceipt).
 *  O11. A failed CREATE's `to`: geth's callTracer clears it (call.go processOutput `f.To = nil`; see
 *      P3 in test/differential/anvilParity.test.ts); the reference's ots entry keeps the address given
 *      on entry. Ours is then checked to be an address, not against the callTracer.
 *  O12. ots_getBlockTransactions pages: anvil counts them from the start of the block (page 0 is the first
 *      transactions); the reference from its end (GetBlockTransactions "Crop page": `pageEnd = n −
 *      pageNumber·pageSize`, `pageStart = pageEnd − pageSize`; reference §6). anvil's whole block (one page
 *      of 255) is cut to the reference's page instead.
 *  O13. ots_hasCode: anvil answers with the state at the END of the block (as eth_getCode at N); the
 *      reference with the state at its START (otterscan_has_code.go: CreateHistoryStateReader(tx,
 *      blockNumber, 0); reference §6: "behaves like eth_getCode at N−1"). Ours at N is compared with
 *      anvil's at N − 1, and with eth_getCode at N − 1.
 *  O9. Unknown transaction: anvil answers ots_traceTransaction with `[]`; the reference fails with
 *      `transaction %#x not found` (otterscan_api.go runTracer). Unknown block: anvil answers -32001
 *      "Resource not found"; the reference answers null by number (getBlockWithSenders returns no block,
 *      GetBlockDetails returns nil) and `couldn't find block number for hash %v` by hash (the hash's
 *      bytes as Go prints a []byte with %v). Argument errors: anvil words them as serde does; ours are
 *      the reference's (Go's JSON decoding, rpc/json.go).
 * JSON key order is not compared with anvil's (anvil writes struct order); ours is Go's map order for
 * the reference's maps (checked below).
 */

type Json = any

let devnet: Devnet
let edge: RunningEdgetrace
let head: number

beforeAll(async () => {
  devnet = await startDevnet()
  edge = await startEdgetrace({ upstream: devnet.anvil.url, port: 0, hardfork: 'prague', api: ['eth', 'ots'] })
  head = Number(await rpcResult(devnet.anvil.url, 'eth_blockNumber'))
}, 120_000)
afterAll(async () => {
  await edge?.close()
  await devnet?.stop()
})

const PRECOMPILES = new Set(Array.from({ length: 0x11 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`))
const FRAME_KINDS_ANVIL_OMITS = new Set(['CREATE', 'CREATE2', 'SELFDESTRUCT'])

/** O1–O3: anvil's block as the reference writes it in ots answers. */
function normalizeAnvilBlock(block: Json): Json {
  const { totalDifficulty: _, ...rest } = block
  rest.logsBloom = null
  if (Array.isArray(rest.withdrawals) && rest.withdrawals.length === 0)
    rest.size = `0x${(BigInt(rest.size) + 1n).toString(16)}`
  return rest
}

/** geth's callTracer frames of a transaction (anvil's), in depth-first order with their depth. */
function flattenCallFrames(frame: Json, depth = 0, out: Json[] = []): Json[] {
  out.push({ ...frame, depth })
  for (const child of frame.calls ?? []) flattenCallFrames(child, depth + 1, out)
  return out
}

/** O5: ots entries as the reference derives them from the frames anvil's callTracer shows. */
function otsEntriesFromCallFrames(root: Json): Json[] {
  const out: Json[] = []
  for (const f of flattenCallFrames(root)) {
    if (f.type !== 'SELFDESTRUCT' && PRECOMPILES.has(f.to)) continue
    const selfdestruct = f.type === 'SELFDESTRUCT'
    out.push({
      type: f.type,
      depth: selfdestruct ? out[out.length - 1].depth + 1 : f.depth,
      from: f.from,
      to: f.to,
      value: f.type === 'STATICCALL' || f.type === 'DELEGATECALL' ? null : (f.value ?? '0x0'),
      input: selfdestruct ? '0x' : f.input,
      // O11: marked, filled from ours below.
      ...(f.to === undefined && f.error !== undefined ? { to: undefined, clearedTo: true } : {}),
      output: selfdestruct ? '0x' : (f.output ?? '0x'),
    })
  }
  return out
}

const isSortedKeys = (o: Json) => {
  const keys = Object.keys(o)
  return keys.join() === [...keys].sort().join()
}

describe('ots_* against anvil, after its documented deviations', () => {
  it('ots_getApiLevel is 8, as anvil', async () => {
    expect(await rpcResult(edge.url, 'ots_getApiLevel')).toBe(8)
    expect(await rpcResult(devnet.anvil.url, 'ots_getApiLevel')).toBe(8)
  })

  it('ots_traceTransaction on every devnet transaction', async () => {
    let omitted = 0
    for (const { hash, label } of devnet.transactions) {
      const ours: Json[] = await rpcResult(edge.url, 'ots_traceTransaction', [hash])
      const anvil: Json[] = await rpcResult(devnet.anvil.url, 'ots_traceTransaction', [hash])
      // O6, O7 on anvil's side; O5 on ours.
      const anvilNormalized = anvil
        .filter((e) => !PRECOMPILES.has(e.to))
        .map((e) => (e.type === 'STATICCALL' || e.type === 'DELEGATECALL' ? { ...e, value: null } : e))
      const oursShown = ours.filter((e) => !FRAME_KINDS_ANVIL_OMITS.has(e.type))
      omitted += ours.length - oursShown.length
      expect(oursShown, label).toEqual(anvilNormalized)
      // O5: every entry, those anvil omits included, as anvil's callTracer frames give them.
      const frames = await rpcResult(devnet.anvil.url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }])
      const expected = otsEntriesFromCallFrames(frames).map((e, i) => {
        if (!e.clearedTo) return e
        const { clearedTo: _, ...rest } = e
        expect(ours[i]?.to, `${label}: a failed create's address`).toMatch(/^0x[0-9a-f]{40}$/)
        return { ...rest, to: ours[i]?.to }
      })
      expect(ours, `${label} (callTracer frames)`).toEqual(expected)
      for (const e of ours)
        expect(Object.keys(e), label).toEqual(['type', 'depth', 'from', 'to', 'value', 'input', 'output'])
    }
    // The devnet has creations and self-destructs: the O5 rule was exercised.
    expect(omitted).toBeGreaterThan(5)
  })

  it('ots_getInternalOperations on every devnet transaction', async () => {
    let dropped = 0
    for (const { hash, label } of devnet.transactions) {
      const ours: Json[] = await rpcResult(edge.url, 'ots_getInternalOperations', [hash])
      const anvil: Json[] = await rpcResult(devnet.anvil.url, 'ots_getInternalOperations', [hash])
      const tx = await rpcResult(devnet.anvil.url, 'eth_getTransactionByHash', [hash])
      // O8: anvil's entry for the transaction's own top frame.
      const first = anvil[0]
      const topFrame =
        first &&
        first.from === tx.from &&
        ((tx.to === null && first.type === 2) || (first.type === 0 && first.to === tx.to && first.value === tx.value))
      if (topFrame) dropped++
      expect(ours, label).toEqual(topFrame ? anvil.slice(1) : anvil)
      for (const e of ours) expect(Object.keys(e), label).toEqual(['type', 'from', 'to', 'value'])
    }
    expect(dropped).toBeGreaterThan(0)
    const kinds = new Set<number>()
    for (const { hash } of devnet.transactions)
      for (const e of await rpcResult(edge.url, 'ots_getInternalOperations', [hash])) kinds.add(e.type)
    // Transfers, self-destructs, CREATE and CREATE2 all occur on the devnet.
    expect([...kinds].sort()).toEqual([0, 1, 2, 3])
  })

  it('ots_getTransactionError on every devnet transaction: revert data, else 0x', async () => {
    let reverted = 0
    for (const { hash, label, status } of devnet.transactions) {
      const ours = await rpcResult(edge.url, 'ots_getTransactionError', [hash])
      expect(ours, label).toBe(await rpcResult(devnet.anvil.url, 'ots_getTransactionError', [hash]))
      if (status === 'success') expect(ours, label).toBe('0x')
      else if (ours !== '0x') reverted++
    }
    expect(reverted).toBeGreaterThan(0)
  })

  it('ots_getBlockDetails and ots_getBlockDetailsByHash on every devnet block', async () => {
    for (let n = 0; n <= head; n++) {
      const anvil = await rpcResult(devnet.anvil.url, 'ots_getBlockDetails', [n])
      anvil.block = normalizeAnvilBlock(anvil.block)
      const ours = await rpcResult(edge.url, 'ots_getBlockDetails', [n])
      expect(ours, `block ${n}`).toEqual(anvil)
      expect(Object.keys(ours)).toEqual(['block', 'issuance', 'totalFees'])
      expect(isSortedKeys(ours.block), `block ${n} keys`).toBe(true)
      expect(ours.block.transactions).toBeUndefined()
      expect(await rpcResult(edge.url, 'ots_getBlockDetails', [`0x${n.toString(16)}`])).toEqual(ours)
      expect(await rpcResult(edge.url, 'ots_getBlockDetailsByHash', [ours.block.hash])).toEqual(ours)
    }
    // Fees were paid on the devnet: totalFees is not trivially zero everywhere.
    const fees = await Promise.all(
      Array.from({ length: head }, (_, i) => rpcResult(edge.url, 'ots_getBlockDetails', [i + 1])),
    )
    expect(fees.some((d) => BigInt(d.totalFees) > 0n)).toBe(true)
  })

  it('ots_getBlockTransactions on every devnet block, pages counted from the end', async () => {
    let multi = 0
    for (let n = 0; n <= head; n++) {
      const count = Number(
        await rpcResult(devnet.anvil.url, 'eth_getBlockTransactionCountByNumber', [`0x${n.toString(16)}`]),
      )
      if (count > 1) multi++
      for (const [page, size] of [
        [0, 25],
        [0, 1],
        [1, 1],
        [0, 2],
        [1, 2],
        [5, 3],
      ] as const) {
        const anvil = await rpcResult(devnet.anvil.url, 'ots_getBlockTransactions', [n, 0, 255])
        expect(anvil.fullblock.transactions.length).toBe(count)
        // O12: the reference's page of anvil's whole block.
        const end = Math.max(0, count - page * size)
        const start = Math.max(0, end - size)
        anvil.fullblock.transactions = anvil.fullblock.transactions.slice(start, end)
        anvil.receipts = anvil.receipts.slice(start, end)
        anvil.fullblock = { ...normalizeAnvilBlock(anvil.fullblock), transactionCount: count } // O4
        anvil.receipts = anvil.receipts.map((r: Json) => {
          const { timestamp: _t, blockTimestamp: _b, ...rest } = r
          if (rest.type !== '0x3') delete rest.blobGasPrice
          return { ...rest, logs: null, logsBloom: null } // O10
        })
        const ours = await rpcResult(edge.url, 'ots_getBlockTransactions', [n, page, size])
        expect(ours, `block ${n} page ${page} size ${size}`).toEqual(anvil)
        expect(isSortedKeys(ours.fullblock)).toBe(true)
        expect(ours.fullblock.transactions.length).toBe(end - start)
        for (const tx of ours.fullblock.transactions) expect(tx.input.length).toBeLessThanOrEqual(10)
        for (const r of ours.receipts) expect([r.logs, r.logsBloom]).toEqual([null, null])
      }
    }
    expect(multi).toBeGreaterThan(0)
  })

  it('ots_hasCode for every contract and account at every block: the state at the start of the block', async () => {
    const addresses = [...Object.values(devnet.contracts), ...devnet.accounts.slice(0, 3)]
    let flips = 0
    for (const address of addresses) {
      let before = false
      // From block 2: the start of block 1 is anvil's genesis state, which does not verify (docs/cli.md, Start-up errors).
      for (let n = 2; n <= head; n++) {
        const block = `0x${n.toString(16)}`
        const ours = await rpcResult(edge.url, 'ots_hasCode', [address, block])
        const previous = `0x${(n - 1).toString(16)}`
        expect(ours, `${address} at ${n}`).toBe(await rpcResult(devnet.anvil.url, 'ots_hasCode', [address, previous])) // O13
        // The start of block n is the end of block n − 1.
        const code = await rpcResult(devnet.anvil.url, 'eth_getCode', [address, previous])
        expect(ours, `${address} at ${n}`).toBe(code !== '0x')
        if (ours !== before) flips++
        before = ours
      }
    }
    expect(flips).toBeGreaterThan(0)
    // Fail closed: the start of block 1 is the genesis state, whose proofs do not verify on anvil.
    const genesis = await rpc(edge.url, 'ots_hasCode', [devnet.contracts.Token, '0x1'])
    expect(genesis.error.code).toBe(-32000)
    expect(genesis.error.message).toMatch(/^state does not verify: block 1's parent state .* cannot be proven/)
    expect(genesis.error.data).toMatchObject({ block: { number: '0x0' }, address: expect.stringMatching(/^0x/) })
  })
})

describe('ots_* errors', () => {
  const unknownHash = `0x${'12'.repeat(32)}`

  it('an unknown transaction is the reference`s error, for each traced method (O9)', async () => {
    for (const method of ['ots_traceTransaction', 'ots_getInternalOperations', 'ots_getTransactionError']) {
      expect((await rpc(edge.url, method, [unknownHash])).error, method).toEqual({
        code: -32000,
        message: `transaction ${unknownHash} not found`,
      })
    }
  })

  it('an unknown block: null by number, the reference`s words by hash (O9)', async () => {
    expect(await rpc(edge.url, 'ots_getBlockDetails', [head + 1000])).toMatchObject({ result: null })
    expect(await rpc(edge.url, 'ots_getBlockTransactions', [head + 1000, 0, 25])).toMatchObject({ result: null })
    expect((await rpc(edge.url, 'ots_getBlockDetailsByHash', [unknownHash])).error).toEqual({
      code: -32000,
      message: `couldn't find block number for hash [${Array(32).fill(18).join(' ')}]`,
    })
    expect((await rpc(edge.url, 'ots_hasCode', [devnet.accounts[0], unknownHash])).error).toMatchObject({
      code: -32000,
    })
  })

  it('bad arguments are -32602 naming the argument, and the server keeps serving', async () => {
    const cases: [string, unknown[], string][] = [
      [
        'ots_getBlockTransactions',
        [1, '0x0', 25],
        'invalid argument 1: json: cannot unmarshal string into Go value of type uint8',
      ],
      [
        'ots_getBlockTransactions',
        [1, 0, 256],
        'invalid argument 2: json: cannot unmarshal number 256 into Go value of type uint8',
      ],
      [
        'ots_getBlockTransactions',
        [1, -1, 2],
        'invalid argument 1: json: cannot unmarshal number -1 into Go value of type uint8',
      ],
      ['ots_getBlockTransactions', [1, 0], 'missing value for required argument 2'],
      ['ots_getBlockDetails', [], 'missing value for required argument 0'],
      [
        'ots_getBlockDetails',
        [{ blockNumber: '0x1' }],
        'invalid argument 0: json: cannot unmarshal object into Go value of type string',
      ],
      ['ots_getBlockDetails', [unknownHash], 'invalid argument 0: hex number > 64 bits'],
      ['ots_getBlockDetailsByHash', ['0x12'], 'invalid argument 0: hex string has length 2, want 64 for common.Hash'],
      ['ots_traceTransaction', [], 'missing value for required argument 0'],
      ['ots_traceTransaction', [unknownHash, 1], 'too many arguments, want at most 1'],
      [
        'ots_getInternalOperations',
        [42],
        'invalid argument 0: json: cannot unmarshal number into Go value of type common.Hash',
      ],
      ['ots_hasCode', [devnet.accounts[0]], 'missing value for required argument 1'],
      ['ots_hasCode', ['0x1234', 'latest'], 'invalid argument 0: hex string has length 4, want 40 for common.Address'],
      ['ots_getApiLevel', [1], 'too many arguments, want at most 0'],
    ]
    for (const [method, params, message] of cases)
      expect((await rpc(edge.url, method, params)).error, `${method} ${JSON.stringify(params)}`).toEqual({
        code: -32602,
        message,
      })
    expect(await rpcResult(edge.url, 'ots_getApiLevel')).toBe(8)
  })

  it('decimal and bare-number block numbers are taken, as the reference`s rpc.BlockNumber', async () => {
    const byHex = await rpcResult(edge.url, 'ots_getBlockDetails', ['0x2'])
    expect(await rpcResult(edge.url, 'ots_getBlockDetails', ['2'])).toEqual(byHex)
    expect(await rpcResult(edge.url, 'ots_getBlockDetails', [2])).toEqual(byHex)
    expect((await rpcResult(edge.url, 'ots_getBlockDetails', ['latest'])).block.number).toBe(`0x${head.toString(16)}`)
  })
})

describe('ots_* fail closed: what the upstream alters is refused, naming the block or address', () => {
  /** An edgetrace serving ots in front of the devnet through the fault proxy, with `hooks`. */
  async function tampered(hooks: ProxyHooks, run: (url: string) => Promise<void>) {
    const proxy = await createProxy(devnet.anvil.url, hooks)
    const e = await startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague', api: ['eth', 'ots'] })
    try {
      await run(e.url)
    } finally {
      await e.close()
      await proxy.stop()
    }
  }
  const busyBlock = () => devnet.transactions.find((t) => t.status === 'success' && t.type === 2)!

  it("a receipt's altered gas: ots_getBlockDetails and ots_getBlockTransactions refuse it by receiptsRoot", async () => {
    const { blockNumber } = busyBlock()
    const block = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', [`0x${blockNumber.toString(16)}`, false])
    await tampered(
      {
        transform: (c, r: any) =>
          c.method === 'eth_getBlockReceipts' && Array.isArray(r)
            ? r.map((x: any, i: number) => (i === 0 ? { ...x, cumulativeGasUsed: '0x1' } : x))
            : r,
      },
      async (url) => {
        for (const [method, params] of [
          ['ots_getBlockDetails', [blockNumber]],
          ['ots_getBlockDetailsByHash', [block.hash]],
          ['ots_getBlockTransactions', [blockNumber, 0, 25]],
        ] as const) {
          const { error } = await rpc(url, method, [...params])
          expect(error?.code, method).toBe(-32000)
          expect(error.data.block.hash, method).toBe(block.hash)
          expect(error.message, method).toContain('receiptsRoot')
        }
      },
    )
  })

  it("a transaction's altered input: ots_getBlockTransactions refuses the block (its transactions do not hash to the header's root)", async () => {
    const { blockNumber } = busyBlock()
    await tampered(
      {
        transform: (c, r: any) =>
          c.method.startsWith('eth_getBlockBy') &&
          Array.isArray(r?.transactions) &&
          typeof r.transactions[0] === 'object'
            ? { ...r, transactions: r.transactions.map((t: any) => ({ ...t, input: `${t.input}00` })) }
            : r,
      },
      async (url) => {
        const { error } = await rpc(url, 'ots_getBlockTransactions', [blockNumber, 0, 25])
        expect(error?.code).toBe(-32000)
        expect(error.message).toMatch(
          new RegExp(
            `^header does not verify: block ${blockNumber}: the upstream's transactions hash to another root than the header's$`,
          ),
        )
      },
    )
  })

  it("an account's altered code hash: ots_hasCode refuses it, naming block and address", async () => {
    const address = devnet.contracts.Token!
    await tampered(
      {
        transform: (c, r: any) =>
          c.method === 'eth_getProof' && r?.address?.toLowerCase() === address.toLowerCase()
            ? { ...r, codeHash: `0x${'ab'.repeat(32)}` }
            : r,
      },
      async (url) => {
        const { error } = await rpc(url, 'ots_hasCode', [address, `0x${head.toString(16)}`])
        expect(error?.code).toBe(-32000)
        expect(error.data?.address).toBe(address.toLowerCase())
        expect(error.data?.block?.number).toBe(`0x${(head - 1).toString(16)}`)
      },
    )
  })
})
