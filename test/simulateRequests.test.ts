import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, concatBytes, hexToBytes } from '@ethereumjs/util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FixtureNode, startFixtureNode } from '../tools/fixture-node/startFixtureNode.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { rpc } from './src/rpc.js'

// EIP-7685 requests of simulated Prague blocks, on execution-apis' chain (its genesis holds the
// EIP-7002 and EIP-7251 queue contracts): a withdrawal request a simulated call queues is dequeued by
// the block's system call, so the block's requestsHash commits to it — computed here from the
// request's own bytes — and the next block,
// the queue empty again, has the hash of no requests.

const root = fileURLToPath(new URL('./fixtures/execution-apis/', import.meta.url))
type Hex = `0x${string}`
const QUEUE = '0x00000961ef480eb55e80d19ad83579a64c007002'
const SENDER = '0x1111111111111111111111111111111111111111'
const EMPTY = bytesToHex(sha256(new Uint8Array()))

let node: FixtureNode
let edge: RunningEdgetrace
beforeAll(async () => {
  const genesis = JSON.parse(readFileSync(join(root, 'genesis.json'), 'utf8')) as Record<string, unknown>
  node = await startFixtureNode({ genesis, blocks: new Uint8Array(readFileSync(join(root, 'chain.rlp'))) })
  edge = await startEdgetrace({ upstream: node.url, port: 0, api: ['eth'], genesis: genesis as never })
}, 120_000)
afterAll(async () => {
  await edge?.close()
  await node?.close()
})

describe('eth_simulateV1: EIP-7685 requests', () => {
  it('a queued withdrawal request is in its block’s requestsHash, and gone from the next block’s', async () => {
    const pubkey = `0x${'ab'.repeat(48)}`
    const amount = '0x0000000000000005'
    const input = `${pubkey}${amount.slice(2)}`
    const res = await rpc(edge.url, 'eth_simulateV1', [
      {
        blockStateCalls: [
          {
            stateOverrides: { [SENDER]: { balance: '0xde0b6b3a7640000' } },
            // The queue's fee is 1 wei while no request is in excess.
            calls: [{ from: SENDER, to: QUEUE, input, value: '0x1', gas: '0x30d40' }],
          },
          { calls: [] },
        ],
      },
      'latest',
    ])
    expect(res.error).toBeUndefined()
    const [first, second] = res.result as { requestsHash: string; calls: { status: string }[] }[]
    expect(first!.calls[0]!.status).toBe('0x1')
    // The queue's record (EIP-7002): source address ‖ pubkey ‖ amount, the amount little-endian (as
    // the consensus layer's SSZ has it) although the call gave it big-endian.
    const littleEndian = hexToBytes(amount as Hex).reverse()
    const request = concatBytes(Uint8Array.from([1]), hexToBytes(SENDER), hexToBytes(pubkey as Hex), littleEndian)
    expect(first!.requestsHash).toBe(bytesToHex(sha256(sha256(request))))
    expect(second!.requestsHash).toBe(EMPTY)
  })

  it('without requests, the hash of none', async () => {
    const res = await rpc(edge.url, 'eth_simulateV1', [{ blockStateCalls: [{ calls: [] }] }, 'latest'])
    expect((res.result as { requestsHash: string }[])[0]!.requestsHash).toBe(EMPTY)
  })
})
