import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { replayTransaction } from '../src/exec/replayTransaction.js'
import { encodeCall } from '../src/node/devnet/abi.js'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import type { RunningEdgetrace } from '../src/node/startEdgetrace.js'
import { withDevnetAndEdgetrace } from './src/devnet.js'
import { rpc, rpcResult, waitForReceipt } from './src/rpc.js'

// EIP-7702 (type 4): an EOA delegating to contract code, as a call and as a mined transaction.
// anvil's well-known dev keys 0 and 2.
const sender = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const authority = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a')

let devnet: Devnet
let edge: RunningEdgetrace

let stop: () => Promise<void>

beforeAll(async () => {
  ;({ devnet, edge, stop } = await withDevnetAndEdgetrace())
})
afterAll(() => stop())

async function authorization(nonceOffset = 0) {
  const nonce =
    Number(await rpcResult(devnet.anvil.url, 'eth_getTransactionCount', [authority.address, 'latest'])) + nonceOffset
  return authority.signAuthorization({ contractAddress: devnet.contracts.Scenarios!, chainId: 31337, nonce })
}

const toRpcAuth = (a: Awaited<ReturnType<typeof authorization>>) => ({
  chainId: `0x${a.chainId.toString(16)}`,
  address: a.address,
  nonce: `0x${a.nonce.toString(16)}`,
  yParity: `0x${(a.yParity ?? 0).toString(16)}`,
  r: a.r,
  s: a.s,
})

describe('EIP-7702', () => {
  it('eth_call with an authorization list equals anvil', async () => {
    const auth = await authorization()
    const call = {
      from: sender.address,
      to: authority.address,
      data: encodeCall('recurse(uint256)', [2]),
      authorizationList: [toRpcAuth(auth)],
    }
    const [ours, theirs] = await Promise.all([
      rpc(edge.url, 'eth_call', [call]),
      rpc(devnet.anvil.url, 'eth_call', [call]),
    ])
    expect(theirs.error).toBeUndefined()
    expect(ours).toEqual(theirs)
  })

  it('a mined type-4 transaction replays with the gas of its receipt', async () => {
    const auth = await authorization()
    const nonce = Number(await rpcResult(devnet.anvil.url, 'eth_getTransactionCount', [sender.address, 'latest']))
    const raw = await sender.signTransaction({
      type: 'eip7702',
      chainId: 31337,
      nonce,
      to: authority.address,
      data: encodeCall('increment()'),
      gas: 200_000n,
      maxFeePerGas: 3_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      authorizationList: [auth],
    })
    const hash = await rpcResult(devnet.anvil.url, 'eth_sendRawTransaction', [raw])
    const receipt = await waitForReceipt(devnet.anvil.url, hash)
    expect(receipt.type).toBe('0x4')
    expect(receipt.status).toBe('0x1')
    const replayed = await replayTransaction(edge.engine, hash)
    expect(`0x${replayed.result.totalGasSpent.toString(16)}`).toBe(receipt.gasUsed)
    // The delegation is in place afterwards: the authority's code is 0xef0100 ‖ Scenarios.
    const code = await rpcResult(edge.url, 'eth_getCode', [authority.address, 'latest'])
    expect(code).toBe(`0xef0100${devnet.contracts.Scenarios!.slice(2)}`)
    const counter = { to: authority.address, data: encodeCall('counter()') }
    expect(await rpcResult(edge.url, 'eth_call', [counter])).toBe(
      await rpcResult(devnet.anvil.url, 'eth_call', [counter]),
    )
  })
})
