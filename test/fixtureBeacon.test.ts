import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { slotsPerPeriod } from '../src/chain/beacon/beaconConfig.js'
import { BEACON_LIES } from '../src/node/devnet/createDevnetBeacon.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { type FixtureNode, startFixtureNode } from '../tools/fixture-node/startFixtureNode.js'
import { rpc, rpcResult } from './src/rpc.js'
import { EXECUTION_APIS_DIR } from './src/useExecutionApisChain.js'

// The fixture node's beacon chain (tools/fixture-node/createFixtureBeacon.ts): light-client endpoints
// for its own execution chain (execution-apis' fork-transition chain, extended with empty blocks past
// a sync-committee period), on the node's own port. edgetrace with --beacon.upstream at it answers in
// trust mode consensus; each way it can lie is refused, naming what failed.

const genesis = JSON.parse(readFileSync(join(EXECUTION_APIS_DIR, 'genesis.json'), 'utf8')) as Record<string, unknown>
const blocks = new Uint8Array(readFileSync(join(EXECUTION_APIS_DIR, 'chain.rlp')))
const ADDRESS = '0x0c2c51a0990aee1d73c1228de158688341557508'

let node: FixtureNode
beforeAll(async () => {
  node = await startFixtureNode({ genesis, blocks, beacon: true })
}, 180_000)
afterAll(async () => {
  await node?.close()
})

const start = () =>
  startEdgetrace({
    upstream: node.url,
    port: 0,
    api: ['eth', 'debug'],
    genesis: genesis as never,
    beacon: { url: node.url, checkpoint: node.beacon!.checkpoint },
  })

describe('the fixture node serving a beacon chain over its own blocks', () => {
  let edge: RunningEdgetrace
  beforeAll(async () => {
    edge = await start()
  }, 60_000)
  afterAll(async () => {
    await edge?.close()
  })

  it("carries the chain's post-merge blocks slot by slot, past a committee period, with finality", async () => {
    const beacon = node.beacon!
    // execution-apis' chain merges at block 36: slot 0 carries it; empty blocks were mined to give 96 slots.
    expect(beacon.firstBlock).toBe(36n)
    const head = node.chain.head()
    expect(head.block.header.number).toBe(36n + 95n)
    expect(beacon.beacon.head).toBe(96)
    expect(beacon.minedBlocks).toBe(131 - 54)
    const res = await fetch(`${node.url}/eth/v1/beacon/light_client/finality_update`)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    const update = ((await res.json()) as any).data
    expect(update.attested_header.execution.block_hash).toBe(head.hash)
    expect(update.attested_header.execution.state_root).toBe(
      `0x${Buffer.from(head.block.header.stateRoot).toString('hex')}`,
    )
    expect(Number(update.finalized_header.beacon.slot)).toBe(beacon.beacon.finalizedSlotAt(95))
    expect(Number(update.attested_header.beacon.slot)).toBeGreaterThan(slotsPerPeriod(beacon.beacon.config))
  })

  it('edgetrace with --beacon.upstream at it answers in trust mode consensus: the head its committee signed, finality, rotation', async () => {
    const head = node.chain.head()
    const trust = await rpcResult(edge.url, 'edgetrace_trust')
    expect(trust).toMatchObject({
      mode: 'consensus',
      checkpoint: node.beacon!.checkpoint,
      syncCommitteePeriod: '0x1',
      participation: { signed: 32, of: 32 },
    })
    expect(trust.optimistic.blockHash).toBe(head.hash)
    const finalizedNumber = 36 + node.beacon!.beacon.finalizedSlotAt(95)
    expect(trust.finalized.blockNumber).toBe(`0x${finalizedNumber.toString(16)}`)
    expect(await rpcResult(edge.url, 'eth_blockNumber')).toBe(`0x${head.block.header.number.toString(16)}`)
    expect((await rpcResult(edge.url, 'eth_getBlockByNumber', ['finalized', false])).hash).toBe(
      node.chain.byNumber(BigInt(finalizedNumber))!.hash,
    )
    expect(await rpcResult(edge.url, 'eth_getBalance', [ADDRESS, 'latest'])).toBe(
      await rpcResult(node.url, 'eth_getBalance', [ADDRESS, 'latest']),
    )
    // A block mined on the execution chain gets the next slot; edgetrace's head follows within a slot (1 s).
    const mined = await node.chain.mineBlock({ timestamp: head.block.header.timestamp + 12n }, [])
    let number = ''
    for (let i = 0; i < 40 && number !== `0x${mined.block.header.number.toString(16)}`; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      number = (await rpc(edge.url, 'eth_blockNumber')).result
    }
    expect(number).toBe(`0x${mined.block.header.number.toString(16)}`)
    expect((await rpcResult(edge.url, 'eth_getBlockByNumber', ['latest', false])).hash).toBe(mined.hash)
  }, 60_000)

  it("refuses the execution side's head forged with its hash recomputed — by tag and by number — naming both hashes", async () => {
    // A new head, first fetched while the execution side lies (a header proven once is remembered).
    const before = node.chain.head()
    const head = await node.chain.mineBlock({ timestamp: before.block.header.timestamp + 12n }, [])
    node.beacon!.lieAboutHead = true
    try {
      // The upstream's own answer is the forged block: self-consistent, another hash.
      const forged = await rpcResult(node.url, 'eth_getBlockByNumber', ['latest', false])
      expect(forged.hash).not.toBe(head.hash)
      expect(forged.number).toBe(`0x${head.block.header.number.toString(16)}`)
      // Once the light client has the new head (within a slot), even the head's number is refused.
      let seen: { result?: string; error?: { message: string } } = {}
      for (let i = 0; i < 40 && !seen.error; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        seen = await rpc(edge.url, 'eth_blockNumber')
        expect(seen.result ?? `0x${before.block.header.number.toString(16)}`).toBe(
          `0x${before.block.header.number.toString(16)}`,
        )
      }
      expect(JSON.stringify(seen.error)).toContain(forged.hash)
      for (const asked of ['latest', `0x${head.block.header.number.toString(16)}`]) {
        const out = await rpc(edge.url, 'eth_getBalance', [ADDRESS, asked])
        expect(out.result).toBeUndefined()
        // Both hashes named: in the message or as data (expectedHash, gotHash).
        expect(JSON.stringify(out.error)).toContain(head.hash)
        expect(JSON.stringify(out.error)).toContain(forged.hash)
      }
    } finally {
      node.beacon!.lieAboutHead = false
    }
  })

  const named: Record<(typeof BEACON_LIES)[number], RegExp> = {
    signature: /signature does not verify/,
    participation: /participation does not verify: 8 of 32 of the sync committee signed/,
    'finality branch': /finality branch does not verify/,
    'execution branch': /execution branch does not verify/,
    fork: /signed under deneb's fork version where electra is in force/,
    period: /period does not verify: asked for the update of period 0, the beacon node gave one attested in period 1/,
  }
  for (const lie of BEACON_LIES) {
    it(`a beacon chain lying by its ${lie} is refused at the start, naming it`, async () => {
      node.beacon!.beacon.lie = lie
      try {
        const err = await start().then(
          async (e) => {
            await e.close()
            return undefined
          },
          (e: unknown) => e as Error,
        )
        expect(err?.message).toMatch(named[lie])
      } finally {
        node.beacon!.beacon.lie = undefined
      }
    }, 60_000)
  }
})
