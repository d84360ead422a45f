import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createBlob4844Tx } from '@ethereumjs/tx'
import { bigIntToBytes, bytesToHex, hexToBytes, privateToAddress, setLengthLeft } from '@ethereumjs/util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEdgetraceService } from '../src/browser/createEdgetraceService.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { type FixtureBlock, FixtureImportError } from '../tools/fixture-node/createFixtureChain.js'
import { type FixtureNode, startFixtureNode } from '../tools/fixture-node/startFixtureNode.js'
import { MERGED_AT_GENESIS } from './src/mergedAtGenesis.js'
import { rpcResult } from './src/rpc.js'
import { CLI_ARGS } from './src/cliCommand.js'

// A devnet whose own BPO schedule differs from mainnet's at every fork: Osaka from genesis, then
// bpo1 … bpo5 every two blocks (12 s slots), each with its own target, max and update fraction.
const SCHEDULE = {
  cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 },
  prague: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
  osaka: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
  bpo1: { target: 1, max: 3, baseFeeUpdateFraction: 200_000 },
  bpo2: { target: 2, max: 6, baseFeeUpdateFraction: 400_000 },
  bpo3: { target: 4, max: 8, baseFeeUpdateFraction: 2_000_000 },
  bpo4: { target: 1, max: 2, baseFeeUpdateFraction: 150_000 },
  bpo5: { target: 3, max: 9, baseFeeUpdateFraction: 900_000 },
}
const FORK_TIMES: [keyof typeof SCHEDULE, number][] = [
  ['osaka', 0],
  ['bpo1', 24],
  ['bpo2', 48],
  ['bpo3', 72],
  ['bpo4', 96],
  ['bpo5', 120],
]
const CHAIN_ID = 0x7e57
const KEY = hexToBytes(`0x${'42'.repeat(32)}`)
const SENDER = bytesToHex(privateToAddress(KEY))
// BLOBBASEFEE must equal the calldata word (else INVALID: the transaction fails); then
// SSTORE(NUMBER, BLOBBASEFEE). A replay under other blob parameters fails or stores another value.
const CHECKER = '0x00000000000000000000000000000000000b10b0'
const CHECKER_CODE = '0x4a60003514600957fe5b4a435500'

const genesis = {
  config: {
    chainId: CHAIN_ID,
    ...MERGED_AT_GENESIS,
    cancunTime: 0,
    pragueTime: 0,
    osakaTime: 0,
    bpo1Time: 24,
    bpo2Time: 48,
    bpo3Time: 72,
    bpo4Time: 96,
    bpo5Time: 120,
    depositContractAddress: '0x00000000219ab540356cbb839cbe05303d7705fa',
    ethash: {},
    blobSchedule: SCHEDULE,
  },
  nonce: '0x0',
  timestamp: '0x0',
  extraData: '0x',
  gasLimit: '0x1c9c380',
  difficulty: '0x0',
  baseFeePerGas: '0x7',
  excessBlobGas: '0x0',
  blobGasUsed: '0x0',
  alloc: {} as Record<string, { balance?: string; code?: string }>,
}

// --- geth's blob gas rules (consensus/misc/eip4844), worked out here without ethereumjs ---------------
const GAS_PER_BLOB = 131072n
function fakeExponential(factor: bigint, numerator: bigint, denominator: bigint): bigint {
  let output = 0n
  let accum = factor * denominator
  for (let i = 1n; accum > 0n; i++) {
    output += accum
    accum = (accum * numerator) / denominator / i
  }
  return output / denominator
}
/** The schedule entry of the latest fork active at `time`. */
function configAt(time: bigint) {
  let fork: keyof typeof SCHEDULE = 'osaka'
  for (const [name, at] of FORK_TIMES) if (time >= BigInt(at)) fork = name
  return { fork, ...SCHEDULE[fork] }
}
const blobFee = (excess: bigint, time: bigint) =>
  fakeExponential(1n, excess, BigInt(configAt(time).baseFeeUpdateFraction))
/** geth's calcExcessBlobGas with Osaka's EIP-7918 reserve price, for a child at `time`. */
function nextExcess(parent: { excess: bigint; used: bigint; baseFee: bigint }, time: bigint): bigint {
  const c = configAt(time)
  const target = BigInt(c.target) * GAS_PER_BLOB
  if (parent.excess + parent.used < target) return 0n
  if (8192n * parent.baseFee > GAS_PER_BLOB * fakeExponential(1n, parent.excess, BigInt(c.baseFeeUpdateFraction))) {
    return parent.excess + (parent.used * BigInt(c.max - c.target)) / BigInt(c.max)
  }
  return parent.excess + parent.used - target
}

const versionedHash = (i: number) => `0x01${i.toString(16).padStart(62, '0')}` as const

describe('a chain with its own BPO schedule (bpo1 … bpo5), imported by the fixture node and traced by edgetrace', () => {
  let node: FixtureNode
  let edge: RunningEdgetrace
  const blocks: FixtureBlock[] = []
  /** Per block: the excess blob gas and the blob base fee geth's formulas give. */
  const model: { number: bigint; time: bigint; fork: string; excess: bigint; fee: bigint; txHash: string }[] = []

  beforeAll(async () => {
    genesis.alloc = {
      [SENDER]: { balance: `0x${(10n ** 24n).toString(16)}` },
      [CHECKER]: { code: CHECKER_CODE },
    }
    node = await startFixtureNode({ genesis })
    let parent = { excess: 0n, used: 0n, baseFee: 7n }
    let nonce = 0n
    let hashes = 1
    // Fourteen blocks, 12 s apart: two or three per fork, each carrying that fork's maximum of blobs.
    for (let n = 1n; n <= 14n; n++) {
      const time = n * 12n
      const { fork, max } = configAt(time)
      const excess = nextExcess(parent, time)
      const fee = blobFee(excess, time)
      const txs = []
      for (let left = max; left > 0; left -= 6) {
        const count = Math.min(left, 6)
        const tx = createBlob4844Tx(
          {
            chainId: CHAIN_ID,
            nonce: nonce++,
            to: CHECKER,
            data: bytesToHex(setLengthLeft(bigIntToBytes(fee), 32)),
            gasLimit: 100_000n,
            maxFeePerGas: 10n ** 9n,
            maxPriorityFeePerGas: 1n,
            maxFeePerBlobGas: 10n ** 15n,
            blobVersionedHashes: Array.from({ length: count }, () => versionedHash(hashes++)),
          },
          { common: node.chain.rules.commonFor(n, time) },
        ).sign(KEY)
        txs.push(tx)
      }
      const parentBlock = node.chain.head().block
      const block = await node.chain.mineBlock(
        { timestamp: time, baseFeePerGas: parentBlock.header.calcNextBaseFee() },
        txs,
      )
      blocks.push(block)
      model.push({ number: n, time, fork, excess, fee, txHash: bytesToHex(txs[0]!.hash()) })
      parent = { excess, used: BigInt(max) * GAS_PER_BLOB, baseFee: block.block.header.baseFeePerGas! }
    }
    edge = await startEdgetrace({
      upstream: node.url,
      port: 0,
      api: ['eth', 'debug', 'trace'],
      genesis: genesis as never,
    })
  }, 120_000)
  afterAll(async () => {
    await edge?.close()
    await node?.close()
  })

  it("mines every block to geth's excess blob gas under its fork's schedule, each transaction seeing the blob base fee geth gives", () => {
    expect(blocks.map((b) => b.block.common.hardfork())).toEqual(model.map((m) => m.fork))
    expect(new Set(model.map((m) => m.fork))).toEqual(new Set(['osaka', 'bpo1', 'bpo2', 'bpo3', 'bpo4', 'bpo5']))
    for (const [i, b] of blocks.entries()) {
      expect(b.block.header.excessBlobGas).toBe(model[i]!.excess)
      expect(b.block.header.getBlobGasPrice()).toBe(model[i]!.fee)
      // The checker passed (status 1): BLOBBASEFEE equalled geth's fee.
      for (const r of b.receipts) expect((r.receipt as { status?: number }).status).toBe(1)
    }
    // The schedule mattered: fees rose above 1 wei and differ from what mainnet's bpo values give.
    expect(model.some((m) => m.fee > 1n)).toBe(true)
    expect(model.filter((m) => m.fork === 'bpo2').map((m) => m.fee)).not.toEqual(
      model.filter((m) => m.fork === 'bpo2').map((m) => fakeExponential(1n, m.excess, 11684671n)),
    )
  })

  it('imports the same chain from genesis + RLP blocks, and refuses a block whose excess blob gas is not the schedule’s', async () => {
    const rlp = (bs: FixtureBlock[]) => {
      const parts = bs.map((b) => b.block.serialize())
      const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
      let at = 0
      for (const p of parts) all.set(p, (at += p.length) - p.length)
      return all
    }
    const imported = await startFixtureNode({ genesis, blocks: rlp(blocks) })
    try {
      expect(imported.chain.head().hash).toBe(blocks.at(-1)!.hash)
      expect(imported.chain.head().block.common.hardfork()).toBe('bpo5')
    } finally {
      await imported.close()
    }
    // A header claiming mainnet-like excess (off by one blob) is refused, naming the block.
    const { createBlock } = await import('@ethereumjs/block')
    const last = blocks.at(-1)!.block
    const forged = createBlock(
      {
        header: { ...last.header.toJSON(), excessBlobGas: last.header.excessBlobGas! + GAS_PER_BLOB },
        transactions: last.transactions,
      },
      { common: last.common, skipConsensusFormatValidation: true },
    )
    await expect(
      startFixtureNode({ genesis, blocks: rlp([...blocks.slice(0, -1), { ...blocks.at(-1)!, block: forged }]) }),
    ).rejects.toThrow(FixtureImportError)
    await expect(
      startFixtureNode({ genesis, blocks: rlp([...blocks.slice(0, -1), { ...blocks.at(-1)!, block: forged }]) }),
    ).rejects.toThrow(
      /block 14 \(0x[0-9a-f]{64}\): excessBlobGas \d+, but its parent and the blob schedule of bpo5 give \d+/,
    )
  })

  it('traces transactions past bpo2 through edgetrace: the replay matches the receipts and sees the custom blob base fee', async () => {
    for (const m of model.filter((x) => ['bpo2', 'bpo3', 'bpo4', 'bpo5'].includes(x.fork))) {
      const calls = await rpcResult(edge.url, 'trace_transaction', [m.txHash])
      expect(calls[0]).toMatchObject({ type: 'call', action: { to: CHECKER }, transactionHash: m.txHash })
      expect(calls[0].error).toBeUndefined()
      const replay = await rpcResult(edge.url, 'trace_replayTransaction', [m.txHash, ['stateDiff']])
      const slot = `0x${m.number.toString(16).padStart(64, '0')}`
      expect(replay.stateDiff[CHECKER].storage[slot]).toEqual({
        '*': { from: `0x${'0'.repeat(64)}`, to: `0x${m.fee.toString(16).padStart(64, '0')}` },
      })
      const logs = await rpcResult(edge.url, 'debug_traceTransaction', [m.txHash, {}])
      expect(logs.failed).toBe(false)
      const blobBaseFee = logs.structLogs.findIndex((l: { op: string }) => l.op === 'BLOBBASEFEE')
      expect(BigInt(logs.structLogs[blobBaseFee + 1].stack.at(-1))).toBe(m.fee)
    }
  })

  it('is accepted by the browser config (genesis) too, whose service traces past bpo2', async () => {
    const service = await createEdgetraceService({
      upstream: node.url,
      genesis: genesis as never,
      api: ['trace'],
      cache: false,
    })
    try {
      const m = model.find((x) => x.fork === 'bpo4')!
      const out = (await service.request({
        jsonrpc: '2.0',
        id: 1,
        method: 'trace_replayTransaction',
        params: [m.txHash, ['stateDiff']],
      })) as { result?: { stateDiff: Record<string, { storage: Record<string, { '*': { to: string } }> }> } }
      const slot = `0x${m.number.toString(16).padStart(64, '0')}`
      expect(BigInt(out.result!.stateDiff[CHECKER]!.storage[slot]!['*'].to)).toBe(m.fee)
    } finally {
      await service.close()
    }
  })

  it('starts edgetrace from the command line with that genesis as --chain and prints its banner', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edgetrace-bpo-'))
    const file = join(dir, 'genesis.json')
    writeFileSync(file, JSON.stringify(genesis))
    const child = spawn(process.execPath, [...CLI_ARGS, '--upstream', node.url, '--chain', file, '--http.port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner within 30 s: ${out}`)), 30_000)
        const hear = (d: unknown) => {
          out += String(d)
          const m = /listening: +(http:\/\/\S+)/.exec(out)
          if (m) {
            clearTimeout(timer)
            resolve(m[1]!)
          }
        }
        child.stdout.on('data', hear)
        child.stderr.on('data', hear)
        child.on('exit', (code) => {
          clearTimeout(timer)
          reject(new Error(`exited ${code}: ${out}`))
        })
      })
      expect(out).toMatch(/chain: +genesis config \(chain id 32343\)/)
      // And it serves that chain: a transaction past bpo2, read through the CLI's server.
      const m = model.find((x) => x.fork === 'bpo3')!
      expect((await rpcResult(url, 'eth_getTransactionByHash', [m.txHash])).hash).toBe(m.txHash)
    } finally {
      child.kill('SIGTERM')
    }
  })
})
