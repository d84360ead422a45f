import { readFileSync } from 'node:fs'
import { spawn } from 'node:child_process'
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChainRules } from '../src/chain/createChainRules.js'
import { parseHeader } from '../src/chain/parseHeader.js'
import {
  type FixtureNode,
  fixtureRules,
  splitRlpItems,
  startFixtureNode,
} from '../tools/fixture-node/startFixtureNode.js'
import { verifyProof } from '../src/state/verifyProof.js'
import { rpc, rpcResult } from './src/rpc.js'
import { nodeArgsFor } from './src/cliCommand.js'

const fixture = (path: string) => new URL(`./fixtures/${path}`, import.meta.url)
const json = (path: string) => JSON.parse(readFileSync(fixture(path), 'utf8')) as Record<string, unknown>
const bytes = (path: string) => new Uint8Array(readFileSync(fixture(path)))

const CHAINS = {
  besuTrace: { genesis: 'besu/trace-chain/chain-data/genesis.json', blocks: 'besu/trace-chain/chain-data/blocks.bin' },
  besuDefault: {
    genesis: 'besu/default-testchain/chain-data/testGenesis.json',
    blocks: 'besu/default-testchain/chain-data/testBlockchain.blocks',
  },
  executionApis: { genesis: 'execution-apis/genesis.json', blocks: 'execution-apis/chain.rlp' },
}

describe('fixture node: importing recorded chains', () => {
  it('imports Besu trace-chain (Istanbul, PoW rewards): its genesis block is the one recorded in blocks.bin', async () => {
    const raw = bytes(CHAINS.besuTrace.blocks)
    const node = await startFixtureNode({ genesis: json(CHAINS.besuTrace.genesis), blocks: raw })
    try {
      const items = splitRlpItems(raw)
      expect(items).toHaveLength(34)
      expect(node.chain.genesis.hash).toBe(
        bytesToHex(keccak_256(RLP.encode((RLP.decode(items[0]!) as unknown as Uint8Array[][])[0]!))),
      )
      expect(node.chain.head().block.header.number).toBe(33n)
      expect(node.chain.head().block.common.hardfork()).toBe('istanbul')
    } finally {
      await node.close()
    }
  })

  it('imports Besu default-testchain (Frontier) and execution-apis (Homestead … bpo2, merge at 36) to their recorded heads', async () => {
    const besu = await startFixtureNode({
      genesis: json(CHAINS.besuDefault.genesis),
      blocks: bytes(CHAINS.besuDefault.blocks),
    })
    expect(besu.chain.head().block.header.number).toBe(32n)
    expect(besu.chain.head().block.common.hardfork()).toBe('chainstart')
    await besu.close()
    const apis = await startFixtureNode({
      genesis: json(CHAINS.executionApis.genesis),
      blocks: bytes(CHAINS.executionApis.blocks),
    })
    const fcu = json('execution-apis/headfcu.json') as { params: [{ headBlockHash: string }] }
    expect(apis.chain.head().hash).toBe(fcu.params[0].headBlockHash)
    expect(apis.chain.head().block.common.hardfork()).toBe('bpo2')
    await apis.close()
  })

  it('refuses to start when a block does not execute to its header, naming the block', async () => {
    const items = splitRlpItems(bytes(CHAINS.besuTrace.blocks))
    const decoded = RLP.decode(items[5]!) as unknown as Uint8Array[][]
    const header = decoded[0]!
    header[3] = new Uint8Array(32).fill(0x11) // stateRoot
    const tampered = [...items.slice(0, 5), RLP.encode(decoded as never)]
    const all = new Uint8Array(tampered.reduce((n, i) => n + i.length, 0))
    let at = 0
    for (const i of tampered) all.set(i, (at += i.length) - i.length)
    await expect(startFixtureNode({ genesis: json(CHAINS.besuTrace.genesis), blocks: all })).rejects.toThrow(
      /block 5 \(0x[0-9a-f]{64}\) does not execute to its header: .*stateRoot/,
    )
  })

  it('refuses blocks that do not descend from the genesis it built', async () => {
    const genesis = json(CHAINS.besuTrace.genesis)
    const alloc = genesis.alloc as Record<string, { balance: string }>
    const first = Object.keys(alloc)[0]!
    const changed = { ...genesis, alloc: { ...alloc, [first]: { ...alloc[first], balance: '0x1' } } }
    await expect(startFixtureNode({ genesis: changed, blocks: bytes(CHAINS.besuTrace.blocks) })).rejects.toThrow(
      /block 0 .*is not in the chain|block 1 .*parent .* is not in the chain/,
    )
  })
})

describe('fixture node: serving a chain over JSON-RPC', () => {
  let node: FixtureNode
  let rules: ChainRules
  beforeAll(async () => {
    const genesis = json(CHAINS.besuTrace.genesis)
    node = await startFixtureNode({ genesis, blocks: bytes(CHAINS.besuTrace.blocks) })
    rules = fixtureRules(genesis)
  })
  afterAll(() => node.close())

  it('serves blocks whose headers hash to their hashes, by number, tag and hash, with receipts and transactions', async () => {
    expect(await rpcResult(node.url, 'eth_chainId')).toBe('0x7be')
    expect(await rpcResult(node.url, 'eth_blockNumber')).toBe('0x21')
    for (const tag of ['0x0', '0x5', 'latest', 'earliest']) {
      const block = await rpcResult(node.url, 'eth_getBlockByNumber', [tag, true])
      expect(parseHeader(block, rules, block.hash).hash).toBe(block.hash)
      expect(await rpcResult(node.url, 'eth_getBlockByHash', [block.hash, false])).toMatchObject({
        hash: block.hash,
        number: block.number,
      })
    }
    expect(await rpcResult(node.url, 'eth_getBlockByNumber', ['0x100', false])).toBeNull()
    const withTxs = (
      await Promise.all(
        [...Array(34).keys()].map((n) => rpcResult(node.url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, true])),
      )
    ).find((b) => b.transactions.length > 0)
    const tx = withTxs.transactions[0]
    expect(await rpcResult(node.url, 'eth_getTransactionByHash', [tx.hash])).toEqual(tx)
    const receipt = await rpcResult(node.url, 'eth_getTransactionReceipt', [tx.hash])
    expect(receipt).toMatchObject({
      transactionHash: tx.hash,
      blockHash: withTxs.hash,
      status: '0x1',
      transactionIndex: '0x0',
    })
    expect(await rpcResult(node.url, 'eth_getBlockReceipts', [withTxs.number])).toEqual(
      await Promise.all(
        withTxs.transactions.map((t: { hash: string }) => rpcResult(node.url, 'eth_getTransactionReceipt', [t.hash])),
      ),
    )
  })

  it('serves EIP-1186 proofs that verify against the block state root, at every block, and the plain state reads agree', async () => {
    const address = '0x0010000000000000000000000000000000000000'
    for (const n of ['0x1', '0x10', 'latest']) {
      const block = await rpcResult(node.url, 'eth_getBlockByNumber', [n, false])
      const slot = `0x${'0'.repeat(63)}1`
      const proof = await rpcResult(node.url, 'eth_getProof', [address, [slot], { blockHash: block.hash }])
      const leaf = await verifyProof(hexToBytes(block.stateRoot), hexToBytes(address), proof.accountProof)
      expect(leaf).not.toBeNull()
      const stored = await rpcResult(node.url, 'eth_getStorageAt', [address, slot, n])
      expect(BigInt(stored)).toBe(BigInt(proof.storageProof[0].value))
      expect(await rpcResult(node.url, 'eth_getCode', [address, n])).toBe('0x6020356000355560603560403555')
      expect(await rpcResult(node.url, 'eth_getBalance', [address, n])).toBe(proof.balance)
      expect(await rpcResult(node.url, 'eth_getTransactionCount', [address, n])).toBe(proof.nonce)
    }
  })

  it('runs eth_call and eth_createAccessList on a block state, and answers batches and errors as geth does', async () => {
    // 0x0030… returns its 32-byte input plus one.
    const call = { to: '0x0030000000000000000000000000000000000000', data: `0x${'0'.repeat(62)}41` }
    expect(await rpcResult(node.url, 'eth_call', [call, 'latest'])).toBe(`0x${'0'.repeat(62)}42`)
    const list = await rpcResult(node.url, 'eth_createAccessList', [
      {
        to: '0x0010000000000000000000000000000000000000',
        data: `0x${'0'.repeat(63)}1${'0'.repeat(63)}2${'0'.repeat(63)}3${'0'.repeat(63)}4`,
      },
      'latest',
    ])
    expect(list.accessList).toEqual([])
    const res = await fetch(node.url, {
      method: 'POST',
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
        { jsonrpc: '2.0', id: 2, method: 'debug_traceTransaction', params: [] },
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'eth_getProof',
          params: ['0x0010000000000000000000000000000000000000', [], '0x999'],
        },
      ]),
    })
    expect(await res.json()).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x21' },
      {
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32601, message: 'the method debug_traceTransaction does not exist/is not available' },
      },
      { jsonrpc: '2.0', id: 3, error: { code: -32000, message: 'header not found' } },
    ])
    expect((await rpc(node.url, 'eth_getCode', ['0x12', 'latest'])).error).toMatchObject({ code: -32602 })
  })

  it('starts from the command line (npm run fixture-node) and says where it serves', async () => {
    const child = spawn(
      process.execPath,
      [
        ...nodeArgsFor('tools/fixture-node/cli.ts'),
        '--genesis',
        fixture(CHAINS.besuDefault.genesis).pathname,
        '--blocks',
        fixture(CHAINS.besuDefault.blocks).pathname,
        '--port',
        '0',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += String(d)
        const m = /serving on (http:\/\/\S+)/.exec(out)
        if (m) resolve(m[1]!)
      })
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)))
    })
    expect(out).toMatch(/imported 32 blocks; head 32 0x[0-9a-f]{64}/)
    expect(await rpcResult(url, 'eth_blockNumber')).toBe('0x20')
    child.kill('SIGTERM')
  })
})
