import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, concatBytes, hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { rpc } from './src/rpc.js'
import { useExecutionApisChain } from './src/useExecutionApisChain.js'

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
