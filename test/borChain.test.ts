import { createBlock, createBlockHeader } from '@ethereumjs/block'
import { bigIntToBytes, bytesToHex, concatBytes, privateToAddress, setLengthLeft } from '@ethereumjs/util'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { borSealHash } from '../src/chain/bor/borSeal.js'
import { createChainRules } from '../src/chain/createChainRules.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import type { Hex } from '../src/types/hex.js'
import { type FixtureNode, startFixtureNode } from '../tools/fixture-node/startFixtureNode.js'
import { createProxy } from './src/createProxy.js'
import { rpc, rpcResult } from './src/rpc.js'

// A Bor chain served by the fixture node: blocks sealed here, as Bor seals them, by validator keys of
// the test (empty blocks for now), read by edgetrace through its --chain genesis.
const genesis = {
  config: {
    chainId: 4243,
    homesteadBlock: 0,
    eip150Block: 0,
    eip155Block: 0,
    byzantiumBlock: 0,
    constantinopleBlock: 0,
    petersburgBlock: 0,
    istanbulBlock: 0,
    berlinBlock: 0,
    londonBlock: 0,
    bor: { period: { '0': 2 }, sprint: { '0': 4 }, jaipurBlock: 0, delhiBlock: 0, indoreBlock: 0 },
  },
  gasLimit: '0x1c9c380',
  difficulty: '0x1',
  baseFeePerGas: '0x7',
  timestamp: '0x65000000',
  extraData: `0x${'00'.repeat(97)}`,
  alloc: {},
}
const keys = [1, 2, 3].map((i) => setLengthLeft(bigIntToBytes(BigInt(0x2000 + i)), 32))
const signerOf = (key: Uint8Array) => bytesToHex(privateToAddress(key)) as Hex

describe('a Bor chain (fixture node)', () => {
  let node: FixtureNode
  let edge: RunningEdgetrace
  const sealers: Hex[] = []
  beforeAll(async () => {
    const rules = createChainRules({ chainId: 4243n, genesis: genesis as never })
    const empty = await startFixtureNode({ genesis })
    const head = await rpcResult(empty.url, 'eth_getBlockByNumber', ['0x0', false])
    await empty.close()
    const blocks: Uint8Array[] = []
    let parent = head
    for (let n = 1n; n <= 12n; n++) {
      const key = keys[Number(n) % keys.length]!
      const common = rules.commonFor(n, 0n)
      const fields = (extraData: Uint8Array) => ({
        number: n,
        parentHash: parent.hash,
        stateRoot: head.stateRoot,
        timestamp: BigInt(parent.timestamp) + 2n,
        gasLimit: BigInt(parent.gasLimit),
        baseFeePerGas: 7n,
        difficulty: 1n,
        extraData,
      })
      const vanity = new Uint8Array(32)
      const unsealed = createBlockHeader(fields(concatBytes(vanity, new Uint8Array(65))), {
        common,
        skipConsensusFormatValidation: true,
      })
      const signature = secp256k1.sign(borSealHash(unsealed, true), key, { prehash: false, format: 'recovered' })
      const seal = concatBytes(signature.subarray(1), signature.subarray(0, 1))
      const block = createBlock(
        { header: fields(concatBytes(vanity, seal)) },
        { common, skipConsensusFormatValidation: true },
      )
      blocks.push(block.serialize())
      sealers.push(signerOf(key))
      parent = { ...parent, hash: bytesToHex(block.hash()), timestamp: `0x${block.header.timestamp.toString(16)}` }
    }
    node = await startFixtureNode({ genesis, blocks: concatBytes(...blocks.map((b) => b)) })
    edge = await startEdgetrace({ upstream: node.url, port: 0, api: ['eth', 'bor'], genesis: genesis as never })
  }, 60_000)
  afterAll(async () => {
    await edge?.close()
    await node?.close()
  })

  it('bor_getAuthor: the key that sealed each block', async () => {
    for (let n = 1; n <= 12; n++) {
      expect(await rpcResult(edge.url, 'bor_getAuthor', [`0x${n.toString(16)}`])).toBe(sealers[n - 1])
    }
    expect(await rpcResult(edge.url, 'sidechain_getAuthor', [])).toBe(sealers[11])
    expect((await rpc(edge.url, 'bor_getAuthor', ['0x64'])).error).toMatchObject({ message: 'unknown block' })
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
      for (const change of [{ extraData: `0x${'11'.repeat(32)}${'22'.repeat(65)}` }, { difficulty: '0x2' }]) {
        proxy.hooks.transform = (call, result) =>
          call.method === 'eth_getBlockByNumber' && call.params[0] === '0x5'
            ? { ...(result as object), ...change }
            : result
        const answer = await rpc(tampered.url, 'bor_getAuthor', ['0x5'])
        expect(answer.result, JSON.stringify(change)).toBeUndefined()
        expect(answer.error.message).toMatch(/keccak256\(RLP\(header\)\)/)
      }
    } finally {
      await tampered.close()
      await proxy.stop()
    }
  })
})
