import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, concatBytes, hexToBytes } from '@ethereumjs/util'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { rpc } from './src/rpc.js'
import { EXECUTION_APIS_DIR, useExecutionApisChain } from './src/useExecutionApisChain.js'

// EIP-7685 requests of simulated Prague blocks, on execution-apis' chain (its genesis holds the
// EIP-7002 and EIP-7251 queue contracts): a withdrawal request a simulated call queues is dequeued by
// the block's system call, so the block's requestsHash commits to it — computed here from the
// request's own bytes — and the next block,
// the queue empty again, has the hash of no requests.

type Hex = `0x${string}`
const QUEUE = '0x00000961ef480eb55e80d19ad83579a64c007002'
const SENDER = '0x1111111111111111111111111111111111111111'
const EMPTY = bytesToHex(sha256(new Uint8Array()))

const chain = useExecutionApisChain(['eth'])

describe('eth_simulateV1: EIP-7685 requests', () => {
  it('a queued withdrawal request is in its block’s requestsHash, and gone from the next block’s', async () => {
    const pubkey = `0x${'ab'.repeat(48)}`
    const amount = '0x0000000000000005'
    const input = `${pubkey}${amount.slice(2)}`
    const res = await rpc(chain.edge.url, 'eth_simulateV1', [
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
    const res = await rpc(chain.edge.url, 'eth_simulateV1', [{ blockStateCalls: [{ calls: [] }] }, 'latest'])
    expect((res.result as { requestsHash: string }[])[0]!.requestsHash).toBe(EMPTY)
  })
})

describe("eth_simulateV1: a Besu genesis' request contract addresses", () => {
  // Besu's genesis may move the EIP-7002 queue (linea-mainnet.json does): the same chain's genesis
  // with Besu's `withdrawalRequestContractAddress` naming another address, and a Besu-only field
  // (`discovery`) edgetrace ignores. The queue's code is put there by a state override.
  const MOVED = '0x66355689a9f067eeb9dc9d899e4192676988279c'
  let besu: RunningEdgetrace
  beforeAll(async () => {
    const genesis = JSON.parse(readFileSync(join(EXECUTION_APIS_DIR, 'genesis.json'), 'utf8')) as {
      config: Record<string, unknown>
    }
    genesis.config.withdrawalRequestContractAddress = '0x66355689a9f067eeb9dc9d899E4192676988279C'
    genesis.config.discovery = { bootnodes: [] }
    besu = await startEdgetrace({ upstream: chain.node.url, port: 0, api: ['eth'], genesis: genesis as never })
  }, 60_000)
  afterAll(async () => {
    await besu?.close()
  })

  it('the system call empties the queue where the genesis puts it, and eth_config names that address', async () => {
    const code = (await rpc(chain.edge.url, 'eth_getCode', [QUEUE, 'latest'])).result as string
    expect(code.length).toBeGreaterThan(2)
    const pubkey = `0x${'cd'.repeat(48)}`
    const amount = '0x0000000000000007'
    const res = await rpc(besu.url, 'eth_simulateV1', [
      {
        blockStateCalls: [
          {
            stateOverrides: { [SENDER]: { balance: '0xde0b6b3a7640000' }, [MOVED]: { code } },
            calls: [{ from: SENDER, to: MOVED, input: `${pubkey}${amount.slice(2)}`, value: '0x1', gas: '0x30d40' }],
          },
        ],
      },
      'latest',
    ])
    expect(res.error).toBeUndefined()
    const [block] = res.result as { requestsHash: string; calls: { status: string }[] }[]
    expect(block!.calls[0]!.status).toBe('0x1')
    const littleEndian = hexToBytes(amount as Hex).reverse()
    const request = concatBytes(Uint8Array.from([1]), hexToBytes(SENDER), hexToBytes(pubkey as Hex), littleEndian)
    // Dequeued from the moved queue (the EIP's address would have given the hash of no requests).
    expect(block!.requestsHash).toBe(bytesToHex(sha256(sha256(request))))
    const config = (await rpc(besu.url, 'eth_config', [])).result as {
      current: { systemContracts: Record<string, string> }
    }
    expect(config.current.systemContracts.WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS).toBe(MOVED)
  })
})
