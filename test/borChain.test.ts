import { bytesToHex, concatBytes, hexToBytes, privateToAddress } from '@ethereumjs/util'
import { p256 } from '@noble/curves/nist.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import type { FixtureNode } from '../tools/fixture-node/startFixtureNode.js'
import { balanceProbe, coinbaseRecorder, startBorDevnet } from './src/startBorDevnet.js'
import { createSet, proposerOf } from './src/borProposerModel.js'
import {
  BLOCKS,
  BURNT_CONTRACT,
  type Predicted,
  address,
  funder,
  genesis,
  named,
  predict,
  snapshotJson,
} from './src/borDevnet.js'
import { expectedRoot } from './src/borRootTree.js'
import { createProxy } from './src/createProxy.js'
import { rpc, rpcResult } from './src/rpc.js'

// A Bor devnet built by the fixture node (npm run fixture-node -- --genesis … --bor.plan …): sealed
// as Bor seals it by validator keys of this test, the set changed at sprint ends (a validator
// joins, one leaves, a power changes), blocks sealed out of turn, Napoli's extraData from block 20,
// a span crossed (span 0 ends at 255). Every sidechain answer is checked against what an
// independent model of bor's validator set (test/src/borProposerModel.ts) predicts from the keys
// and the schedule alone.
describe('a Bor devnet (fixture node)', () => {
  let node: FixtureNode
  let edge: RunningEdgetrace
  let predicted: Map<number, Predicted>
  const hashes: string[] = []
  beforeAll(async () => {
    node = await startBorDevnet()
    for (let n = 0; n <= BLOCKS; n++) hashes.push(node.chain.byNumber(BigInt(n))!.hash)
    predicted = predict({ number: 0, set: createSet(named(0)) })
    edge = await startEdgetrace({
      upstream: node.url,
      port: 0,
      api: ['eth', 'bor', 'trace', 'debug'],
      genesis: genesis as never,
    })
  }, 120_000)
  afterAll(async () => {
    await edge?.close()
    await node?.close()
  })

  it('the devnet is what the plan says: every block sealed by the signer and with the difficulty the model predicts', () => {
    for (let n = 1; n <= BLOCKS; n++) {
      const header = node.chain.byNumber(BigInt(n))!.block.header
      expect(Number(header.difficulty), `block ${n}`).toBe(predicted.get(n)!.difficulty)
    }
  })

  it('getAuthor: the key that sealed each block', async () => {
    for (let n = 1; n <= BLOCKS; n += 7) {
      expect(await rpcResult(edge.url, 'bor_getAuthor', [`0x${n.toString(16)}`]), `block ${n}`).toBe(
        predicted.get(n)!.signer,
      )
    }
    expect(await rpcResult(edge.url, 'sidechain_getAuthor', [])).toBe(predicted.get(BLOCKS)!.signer)
    expect((await rpc(edge.url, 'bor_getAuthor', ['0x1000'])).error).toMatchObject({ message: 'unknown block' })
  })

  it('getSnapshot and getSnapshotAtHash: the validator set, powers, priorities and proposer the model predicts, across set changes and a span', async () => {
    for (const n of [0, 1, 3, 4, 5, 11, 12, 14, 15, 19, 20, 27, 28, 29, 30, 31, 100, 255, 256, 257, BLOCKS]) {
      const want = snapshotJson(n, hashes[n]!, predicted.get(n)!.after)
      expect(await rpcResult(edge.url, 'bor_getSnapshot', [`0x${n.toString(16)}`]), `block ${n}`).toEqual(want)
      expect(await rpcResult(edge.url, 'sidechain_getSnapshotAtHash', [hashes[n]]), `block ${n}`).toEqual(want)
      const signers = predicted.get(n)!.after.validators.map((v) => v.address)
      expect(await rpcResult(edge.url, 'bor_getSigners', [`0x${n.toString(16)}`])).toEqual(signers)
      expect(await rpcResult(edge.url, 'bor_getSignersAtHash', [hashes[n]])).toEqual(signers)
    }
    const head = predicted.get(BLOCKS)!.after
    expect(await rpcResult(edge.url, 'bor_getSnapshot', [])).toEqual(snapshotJson(BLOCKS, hashes[BLOCKS]!, head))
    expect(await rpcResult(edge.url, 'bor_getCurrentProposer', [])).toBe(proposerOf(head).address)
    expect(await rpcResult(edge.url, 'bor_getCurrentValidators', [])).toEqual(
      snapshotJson(BLOCKS, hashes[BLOCKS]!, head).validatorSet.validators,
    )
  })

  it('getSnapshotProposer and getSnapshotProposerSequence: the in-turn signer, the ranking, in and out of turn', async () => {
    for (const n of [1, 2, 5, 12, 13, 14, 28, 29, 30, 256, 257, BLOCKS]) {
      const parent = predicted.get(n - 1)!.after
      const proposer = proposerOf(parent)
      expect(await rpcResult(edge.url, 'bor_getSnapshotProposer', [`0x${n.toString(16)}`]), `block ${n}`).toBe(
        proposer.address,
      )
      const size = parent.validators.length
      const p = parent.validators.indexOf(proposer)
      const ranking = parent.validators
        .map((v, i) => ({ Signer: v.address, Difficulty: size - ((i - p + size) % size) }))
        .sort((a, b) => b.Difficulty - a.Difficulty)
      const sequence = await rpcResult(edge.url, 'sidechain_getSnapshotProposerSequence', [hashes[n]])
      expect(sequence, `block ${n}`).toEqual({
        Signers: ranking,
        Diff: predicted.get(n)!.difficulty,
        Author: predicted.get(n)!.signer,
      })
    }
  })

  it('a snapshot further back than --bor.snapshotwalk starts from the span start its sprint-end header names, and says so; closer than a span: a clear error', async () => {
    const lines: string[] = []
    const short = await startEdgetrace({
      upstream: node.url,
      port: 0,
      api: ['eth', 'bor'],
      genesis: genesis as never,
      engine: { borSnapshotWalk: 60 },
      log: (line) => lines.push(line),
    })
    try {
      // Block 255 names span 1's set; the model starts a fresh set from it and applies 256…300.
      const fresh = predict({ number: 255, set: createSet(named(256)) })
      expect(await rpcResult(short.url, 'bor_getSnapshot', [`0x${BLOCKS.toString(16)}`])).toEqual(
        snapshotJson(BLOCKS, hashes[BLOCKS]!, fresh.get(BLOCKS)!.after),
      )
      expect(lines.join('\n')).toMatch(
        /no validator snapshot within 60 headers of block 300.*span 1's set as block 255 names it/,
      )
      const answer = await rpc(short.url, 'bor_getSnapshot', ['0xc8'])
      expect(answer.error.message).toMatch(/^no validator set known within 60 headers of block 200/)
    } finally {
      await short.close()
    }
  })

  it('a later snapshot starts from the one cached before it: a few headers, not the whole walk', async () => {
    const fresh = await startEdgetrace({ upstream: node.url, port: 0, api: ['eth', 'bor'], genesis: genesis as never })
    try {
      await rpcResult(fresh.url, 'bor_getSnapshot', ['0x100'])
      fresh.upstream.resetStats()
      const want = snapshotJson(260, hashes[260]!, predicted.get(260)!.after)
      expect(await rpcResult(fresh.url, 'bor_getSnapshot', ['0x104'])).toEqual(want)
      // The head, the block, and one window of 8 headers below it (the snapshot at 256 is among them).
      expect(fresh.upstream.stats().calls).toBeLessThanOrEqual(10)
    } finally {
      await fresh.close()
    }
  })

  describe("with worker threads, a walk's signers recovered on them in stretches", () => {
    let alone: RunningEdgetrace
    let pooled: RunningEdgetrace
    const common = () => ({ upstream: node.url, port: 0, api: ['eth', 'bor'], genesis: genesis as never })
    beforeAll(async () => {
      alone = await startEdgetrace({ ...common(), workers: { threads: 0 } })
      pooled = await startEdgetrace({ ...common(), workers: { threads: 2, minBlocks: 2 } })
    }, 60_000)
    afterAll(async () => {
      await alone?.close()
      await pooled?.close()
    })

    it('the same snapshots, signers, validators and proposers as the main thread alone, and the model', async () => {
      // The stretches the walks hand the workers are counted on their way.
      const workers = pooled.engine.rangeWorkers!
      const run = workers.run.bind(workers)
      let stretches = 0
      workers.run = (text, signal, onTxStart) => {
        if (text.includes('"edgetrace_borSigners"')) stretches++
        return run(text, signal, onTxStart)
      }
      const both = async (method: string, params: unknown[]) => {
        const [a, b] = [await rpc(alone.url, method, params), await rpc(pooled.url, method, params)]
        expect(a.error, `${method} ${JSON.stringify(params)}`).toBeUndefined()
        expect(b, `${method} ${JSON.stringify(params)}`).toEqual(a)
        return a.result
      }
      try {
        // The head's walk first (from the genesis, 300 headers), then later blocks before earlier
        // ones: no snapshot is cached before any of them, so each walks from the genesis.
        const head = predicted.get(BLOCKS)!.after
        expect(await both('bor_getCurrentValidators', [])).toEqual(
          snapshotJson(BLOCKS, hashes[BLOCKS]!, head).validatorSet.validators,
        )
        expect(await both('bor_getCurrentProposer', [])).toBe(proposerOf(head).address)
        expect(stretches).toBeGreaterThanOrEqual(2)
        // Across the span (255, 256), set changes (12, 28) and Napoli (20).
        const blocks = [299, 256, 255, 100, 29, 12, 2]
        for (const n of blocks) {
          const want = snapshotJson(n, hashes[n]!, predicted.get(n)!.after)
          expect(await both('bor_getSnapshot', [`0x${n.toString(16)}`]), `block ${n}`).toEqual(want)
          expect(await both('sidechain_getSnapshotAtHash', [hashes[n]]), `block ${n}`).toEqual(want)
          const signers = predicted.get(n)!.after.validators.map((v) => v.address)
          expect(await both('bor_getSigners', [`0x${n.toString(16)}`])).toEqual(signers)
          expect(await both('bor_getSignersAtHash', [hashes[n]])).toEqual(signers)
          expect(await both('bor_getSnapshotProposer', [`0x${(n + 1).toString(16)}`])).toBe(
            proposerOf(predicted.get(n)!.after).address,
          )
        }
        expect(stretches).toBeGreaterThanOrEqual(2 + blocks.length)
      } finally {
        workers.run = run
      }
    }, 120_000)

    it('past --bor.snapshotwalk: the same span-start snapshot (its 45 headers on the workers), and the same error', async () => {
      const short = { ...common(), engine: { borSnapshotWalk: 60 } }
      const shortAlone = await startEdgetrace({ ...short, workers: { threads: 0 } })
      const shortPooled = await startEdgetrace({ ...short, workers: { threads: 1, minBlocks: 2 } })
      try {
        const fresh = predict({ number: 255, set: createSet(named(256)) })
        for (const url of [shortAlone.url, shortPooled.url])
          expect(await rpcResult(url, 'bor_getSnapshot', [`0x${BLOCKS.toString(16)}`])).toEqual(
            snapshotJson(BLOCKS, hashes[BLOCKS]!, fresh.get(BLOCKS)!.after),
          )
        const [a, b] = [
          await rpc(shortAlone.url, 'bor_getSnapshot', ['0xc8']),
          await rpc(shortPooled.url, 'bor_getSnapshot', ['0xc8']),
        ]
        expect(a.error.message).toMatch(/^no validator set known within 60 headers of block 200/)
        expect(b).toEqual(a)
      } finally {
        await shortAlone.close()
        await shortPooled.close()
      }
    }, 60_000)

    it("edgetrace_borSigners, a worker's stretch: each verified header's number, hash and signer, linked down from the hash it is given; no client has it", async () => {
      const stretch = async (params: unknown[]) =>
        JSON.parse(
          await pooled.engine.rangeWorkers!.run(
            JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'edgetrace_borSigners', params }),
          ),
        )
      const hex = (n: number) => `0x${n.toString(16)}`
      // Across a sprint end, Napoli (block 20) and a block sealed out of turn (14).
      expect((await stretch([hex(10), hex(29), hashes[29]])).result).toEqual(
        Array.from({ length: 20 }, (_, i) => ({
          number: hex(10 + i),
          hash: hashes[10 + i],
          signer: predicted.get(10 + i)!.signer,
        })),
      )
      expect((await stretch([hex(29), hex(30), hashes[29]])).error.message).toBe(
        `block ${hashes[29]} is number 29, not 30`,
      )
      expect((await stretch([hex(30), hex(29), hashes[29]])).error).toMatchObject({ code: -32602 })
      expect((await stretch([hex(1), hex(1100), hashes[29]])).error.message).toBe(
        'a stretch of 1100 blocks; at most 1024 at once',
      )
      expect((await rpc(pooled.url, 'edgetrace_borSigners', [hex(10), hex(29), hashes[29]])).error).toMatchObject({
        code: -32601,
      })
    })
  })

  it('a Bor block with transactions replays and traces (before and after Napoli)', async () => {
    for (const n of [3, 22]) {
      const traces = (await rpcResult(edge.url, 'trace_block', [`0x${n.toString(16)}`])) as { action: { to: string } }[]
      expect(traces).toHaveLength(1)
      expect(traces[0]!.action.to).toBe(address(3))
      const calls = (await rpcResult(edge.url, 'debug_traceBlockByNumber', [
        `0x${n.toString(16)}`,
        { tracer: 'callTracer' },
      ])) as unknown[]
      expect(calls).toHaveLength(1)
    }
  })

  it('executes as Bor does: COINBASE is the author, base fees go to the burnt contract, tips to the author, P-256 at 0x100 from Napoli', async () => {
    // COINBASE from a contract creation's return value, at blocks sealed by different validators.
    for (const n of [5, 14, 30]) {
      const word = await rpcResult(edge.url, 'eth_call', [{ data: '0x4160005260206000f3' }, `0x${n.toString(16)}`])
      expect(`0x${(word as string).slice(-40)}`, `block ${n}`).toBe(predicted.get(n)!.signer)
    }
    // A transaction of block 41 stored COINBASE: the author of block 41, as the replay shows (proven slot).
    const slot = await rpcResult(edge.url, 'eth_getStorageAt', [coinbaseRecorder(), '0x0', '0x29'])
    expect(`0x${(slot as string).slice(-40)}`).toBe(predicted.get(41)!.signer)
    const [store] = (await rpcResult(edge.url, 'trace_replayBlockTransactions', ['0x29', ['stateDiff']])) as {
      stateDiff: Record<string, { storage: Record<string, { '*'?: { to: string }; '+'?: string }> }>
    }[]
    const written = store!.stateDiff[coinbaseRecorder()]!.storage[`0x${'0'.repeat(64)}`]!
    expect(`0x${(written['+'] ?? written['*']!.to).slice(-40)}`).toBe(predicted.get(41)!.signer)
    // Block 3's transfer at a base fee of 7: 21,000 × 7 wei paid to the burnt contract; by the head, every receipt's gas × base fee.
    const baseFee = BigInt(node.chain.byNumber(3n)!.block.header.baseFeePerGas!)
    expect(BigInt(await rpcResult(edge.url, 'eth_getBalance', [BURNT_CONTRACT, '0x2']))).toBe(0n)
    expect(BigInt(await rpcResult(edge.url, 'eth_getBalance', [BURNT_CONTRACT, '0x3']))).toBe(21_000n * baseFee)
    let burnt = 0n
    for (let n = 1n; n <= BigInt(BLOCKS); n++) {
      const block = node.chain.byNumber(n)!
      for (const r of block.receipts) burnt += r.gasUsed * block.block.header.baseFeePerGas!
    }
    expect(burnt).toBeGreaterThan(2n * 21_000n * baseFee)
    expect(BigInt(await rpcResult(edge.url, 'eth_getBalance', [BURNT_CONTRACT, 'latest']))).toBe(burnt)
    // The replay says so too: block 3's state diff credits the burnt contract and the author's tip.
    const [replayed] = (await rpcResult(edge.url, 'trace_replayBlockTransactions', ['0x3', ['stateDiff']])) as {
      stateDiff: Record<string, { balance: unknown }>
    }[]
    expect(replayed!.stateDiff[BURNT_CONTRACT]!.balance).toEqual({ '+': `0x${(21_000n * baseFee).toString(16)}` })
    const author = predicted.get(3)!.signer
    const tip = 21_000n * (10n ** 9n - baseFee)
    const paid = replayed!.stateDiff[author]!.balance as Record<string, { from: string; to: string }>
    const change = paid['*'] ?? { from: '0x0', to: (paid as unknown as Record<string, string>)['+']! }
    expect(BigInt(change.to) - BigInt(change.from)).toBe(tip)

    // EIP-3651 (Shanghai, block 20 here) warms bor's coinbase, the author, not the header's zero address:
    // a contract creation reading the author's balance (block 44) pays 100 gas for it, the zero address's (48) 2,600.
    for (const [n, account, balanceGas] of [
      [44, predicted.get(44)!.signer, 100n],
      [48, `0x${'0'.repeat(40)}`, 2600n],
    ] as const) {
      const init = hexToBytes(balanceProbe(account))
      const calldata = init.reduce((g, b) => g + (b === 0 ? 4n : 16n), 0n)
      // Creation 53,000, calldata, init code word 2; PUSH20 3, BALANCE, POP 2.
      const want = 53_000n + calldata + 2n + 3n + balanceGas + 2n
      const [receipt] = (await rpcResult(edge.url, 'eth_getBlockReceipts', [`0x${n.toString(16)}`])) as {
        gasUsed: string
        transactionHash: string
      }[]
      expect(BigInt(receipt!.gasUsed), `block ${n}`).toBe(want)
      const traced = (await rpcResult(edge.url, 'debug_traceTransaction', [
        receipt!.transactionHash,
        { tracer: 'callTracer' },
      ])) as { gasUsed: string }
      expect(BigInt(traced.gasUsed), `block ${n}`).toBe(want)
    }
    // bor's Cancun (Napoli) jump table: transient storage and MCOPY, but no BLOBHASH, no BLOBBASEFEE.
    expect(await rpcResult(edge.url, 'eth_call', [{ data: '0x5f5c5f5f5f5e00' }, '0x14'])).toBe('0x')
    for (const code of ['0x4a00', '0x5f4900']) {
      const answer = await rpc(edge.url, 'eth_call', [{ data: code }, '0x14'])
      expect(answer.error?.message, code).toMatch(/invalid opcode/)
    }
    // P-256 (RIP-7212): a signature made here verifies at 0x100 from Napoli (block 20) on, for 3,450 gas.
    const key = p256.utils.randomSecretKey()
    const hash = keccak_256(new TextEncoder().encode('edgetrace'))
    const signature = p256.sign(hash, key, { prehash: false, lowS: false })
    const point = p256.getPublicKey(key, false)
    const input = bytesToHex(concatBytes(hash, signature, point.subarray(1)))
    const call = { to: '0x0000000000000000000000000000000000000100', data: input }
    expect(await rpcResult(edge.url, 'eth_call', [call, '0x14'])).toBe(`0x${'0'.repeat(63)}1`)
    expect(await rpcResult(edge.url, 'eth_call', [call, '0x13'])).toBe('0x')
    // Another message under the same signature (the hash's first bit flipped): never valid.
    const tampered = hexToBytes(input)
    tampered[0]! ^= 1
    const bad = { ...call, data: bytesToHex(tampered) }
    expect(await rpcResult(edge.url, 'eth_call', [bad, '0x14'])).toBe('0x')
    const calldata = hexToBytes(input).reduce((g, b) => g + (b === 0 ? 4n : 16n), 0n)
    const traced = (await rpcResult(edge.url, 'debug_traceCall', [call, '0x14', { tracer: 'callTracer' }])) as {
      gasUsed: string
    }
    expect(BigInt(traced.gasUsed)).toBe(21_000n + calldata + 3450n)
  })

  it('bor’s transfer logs (0x…1010): LogTransfer where value moves, LogFeeTransfer for the tip, as tracers and eth_simulateV1 see them', async () => {
    const word = (v: bigint) => v.toString(16).padStart(64, '0')
    const topic = (a: string) => `0x${a.slice(2).padStart(64, '0')}`
    const token = '0x0000000000000000000000000000000000001010'
    const sender = bytesToHex(privateToAddress(funder))
    const author = predicted.get(3)!.signer
    const balance = async (a: string, n: string) => BigInt(await rpcResult(edge.url, 'eth_getBalance', [a, n]))
    const [b0, a0, c0] = [await balance(sender, '0x2'), await balance(address(3), '0x2'), await balance(author, '0x2')]
    const gasPrice = 10n ** 9n
    const baseFee = BigInt(node.chain.byNumber(3n)!.block.header.baseFeePerGas!)
    const tip = 21_000n * (gasPrice - baseFee)
    const paidGas = b0 - 21_000n * gasPrice
    const [{ result: traced }] = (await rpcResult(edge.url, 'debug_traceBlockByNumber', [
      '0x3',
      { tracer: 'callTracer', tracerConfig: { withLog: true } },
    ])) as { result: { logs: { address: string; topics: string[]; data: string }[] } }[]
    expect(traced.logs.map(({ address, topics, data }) => ({ address, topics, data }))).toEqual([
      {
        address: token,
        topics: [
          '0xe6497e3ee548a3372136af2fcb0696db31fc6cf20260707645068bd3fe97f3c4',
          topic(token),
          topic(sender),
          topic(address(3)),
        ],
        data: `0x${word(1n)}${word(paidGas)}${word(a0)}${word(paidGas - 1n)}${word(a0 + 1n)}`,
      },
      {
        address: token,
        topics: [
          '0x4dfe1bbbcf077ddc3e01291eea2d5c70c2b422b415d95645b9adcfd678cb1d63',
          topic(token),
          topic(sender),
          topic(author),
        ],
        data: `0x${word(tip)}${word(b0)}${word(c0)}${word(b0 - tip)}${word(c0 + tip)}`,
      },
    ])
    // A call without value: the tip's log only.
    const [{ result: called }] = (await rpcResult(edge.url, 'debug_traceBlockByNumber', [
      '0x29',
      { tracer: 'callTracer', tracerConfig: { withLog: true } },
    ])) as { result: { logs: { topics: string[] }[] } }[]
    expect(called.logs.map((l) => l.topics[0])).toEqual([
      '0x4dfe1bbbcf077ddc3e01291eea2d5c70c2b422b415d95645b9adcfd678cb1d63',
    ])
    // eth_simulateV1: a value transfer at no gas price logs the transfer alone.
    const [simulated] = (await rpcResult(edge.url, 'eth_simulateV1', [
      { blockStateCalls: [{ calls: [{ from: sender, to: address(2), value: '0x5' }] }] },
      '0x30',
    ])) as { calls: { logs: { address: string; topics: string[] }[] }[] }[]
    expect(simulated!.calls[0]!.logs.map((l) => [l.address, l.topics[0]])).toEqual([
      [token, '0xe6497e3ee548a3372136af2fcb0696db31fc6cf20260707645068bd3fe97f3c4'],
    ])
  })

  it('getRootHash: the checkpoint tree of the devnet’s headers as built in the test; the limit and parameter errors', async () => {
    for (const [start, end] of [
      [1, 1],
      [1, 64],
      [3, 22],
      [1, BLOCKS],
    ] as const) {
      expect(await rpcResult(edge.url, 'bor_getRootHash', [start, end]), `${start}…${end}`).toBe(
        await expectedRoot(node.url, start, end),
      )
    }
    expect((await rpc(edge.url, 'bor_getRootHash', [5, 4])).error.message).toBe(
      'Invalid parameters start: 5 and end block: 4 params',
    )
    expect((await rpc(edge.url, 'bor_getRootHash', [1, BLOCKS + 1])).error.message).toBe(
      `Invalid parameters start: 1 and end block: ${BLOCKS + 1} params`,
    )
    expect((await rpc(edge.url, 'bor_getRootHash', [0, 32_768])).error.message).toBe(
      'Start: 0 and end block: 32768 exceed max allowed checkpoint length: 32768',
    )
    expect((await rpc(edge.url, 'bor_getRootHash', ['0x1', '0x2'])).error.code).toBe(-32602)
  })

  it('a block with a state sync: the Bor upstream lists it after the block’s transactions; shown as bor shows it, never replayed or taken as a receipt', async () => {
    const stateSyncHash = (n: number) =>
      bytesToHex(
        keccak_256(
          concatBytes(
            new TextEncoder().encode('matic-bor-receipt-'),
            hexToBytes(`0x${n.toString(16).padStart(16, '0')}`),
            hexToBytes(hashes[n]! as `0x${string}`),
          ),
        ),
      )
    const full = (await rpcResult(edge.url, 'eth_getBlockByNumber', ['0x24', true])) as {
      transactions: { hash: string; from: string; to: null; transactionIndex: string }[]
    }
    expect(full.transactions.map((t) => t.hash)).toHaveLength(2)
    expect(full.transactions[1]).toMatchObject({
      hash: stateSyncHash(36),
      from: `0x${'0'.repeat(40)}`,
      to: null,
      transactionIndex: '0x1',
    })
    expect(
      ((await rpcResult(edge.url, 'eth_getBlockByHash', [hashes[32], false])) as { transactions: string[] })
        .transactions,
    ).toEqual([stateSyncHash(32)])
    expect(await rpcResult(edge.url, 'eth_getTransactionByHash', [stateSyncHash(36)])).toEqual(full.transactions[1])
    // Traces and receipts: the block's own transaction only.
    expect((await rpcResult(edge.url, 'trace_block', ['0x24'])) as unknown[]).toHaveLength(1)
    expect((await rpcResult(edge.url, 'trace_block', ['0x20'])) as unknown[]).toEqual([])
    expect(
      (await rpcResult(edge.url, 'debug_traceBlockByNumber', ['0x24', { tracer: 'callTracer' }])) as unknown[],
    ).toHaveLength(1)
    expect((await rpcResult(edge.url, 'eth_getBlockReceipts', ['0x24'])) as unknown[]).toHaveLength(1)
    expect((await rpcResult(edge.url, 'debug_getRawReceipts', ['0x24'])) as unknown[]).toHaveLength(1)
    const filtered = (await rpcResult(edge.url, 'trace_filter', [{ fromBlock: '0x1e', toBlock: '0x28' }])) as {
      blockNumber: number
    }[]
    expect(filtered.map((t) => t.blockNumber)).toEqual([36, 40])
  })

  it('a header tampered with on the way (extraData, difficulty) is refused, never answered from', async () => {
    const proxy = await createProxy(node.url)
    const tampered = await startEdgetrace({
      upstream: proxy.url,
      port: 0,
      api: ['eth', 'bor'],
      genesis: genesis as never,
    })
    try {
      for (const change of [{ extraData: `0x${'11'.repeat(32)}${'22'.repeat(65)}` }, { difficulty: '0x7' }]) {
        proxy.hooks.transform = (call, result) =>
          call.method === 'eth_getBlockByNumber' && call.params[0] === '0x5'
            ? { ...(result as object), ...change }
            : result
        const answer = await rpc(tampered.url, 'bor_getAuthor', ['0x5'])
        expect(answer.result, JSON.stringify(change)).toBeUndefined()
        expect(answer.error.message).toMatch(/keccak256\(RLP\(header\)\)/)
        // Met on a snapshot's walk back: the snapshot is refused too.
        const snapshot = await rpc(tampered.url, 'bor_getSnapshot', ['0x10'])
        expect(snapshot.result, JSON.stringify(change)).toBeUndefined()
        expect(snapshot.error.message).toMatch(/keccak256\(RLP\(header\)\)/)
      }
    } finally {
      await tampered.close()
      await proxy.stop()
    }
  })
})
