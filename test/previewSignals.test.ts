import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeCall } from '../src/node/devnet/abi.js'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import type { RunningEdgetrace } from '../src/node/startEdgetrace.js'
import { quantity } from '../src/utils/hex.js'
import { withDevnetAndEdgetrace } from './src/devnet.js'
import { deploy, rpc, rpcResult, storageContractInitCode, waitForReceipt } from './src/rpc.js'

// edgetrace_previewTransactions' signals on the devnet, one test per signal, positive and negative.
// Where a signal rests on state (an allowance, code, a delegation), the same calls are then mined on
// anvil and the state edgetrace proves at the mined block is what the signal said.

let devnet: Devnet
let edge: RunningEdgetrace
let stop: () => Promise<void>
let alice: `0x${string}`
let bob: `0x${string}`
let token: `0x${string}`
let scenarios: `0x${string}`
let delegated: `0x${string}`

const MAX = (1n << 256n) - 1n
const FEES = { maxFeePerGas: quantity(20_000_000_000n), maxPriorityFeePerGas: quantity(1_000_000_000n) }
const GAS = { gas: quantity(200_000) }
/** anvil's well-known dev key 2: an EOA that signs an EIP-7702 authorization to Scenarios. */
const authority = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a')
/** anvil's well-known dev key 0 (alice): the sender of the type-4 transaction. */
const sender = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')

beforeAll(async () => {
  ;({ devnet, edge, stop } = await withDevnetAndEdgetrace())
  ;[alice, bob] = devnet.accounts as [`0x${string}`, `0x${string}`]
  token = devnet.contracts.Token!.toLowerCase() as `0x${string}`
  scenarios = devnet.contracts.Scenarios!.toLowerCase() as `0x${string}`
  delegated = devnet.contracts.DelegatedEOA!.toLowerCase() as `0x${string}`
}, 60_000)
afterAll(() => stop())

const latest = async () => BigInt(await rpcResult(devnet.anvil.url, 'eth_blockNumber'))

/** A preview; newContract and firstInteraction (tested on their own) not looked for unless the options say. */
async function preview(
  calls: Record<string, unknown>[],
  block?: bigint,
  options: object = { newContractDays: 0, firstInteractionBlocks: 0 },
) {
  const res = await rpc(edge.url, 'edgetrace_previewTransactions', [
    calls,
    quantity(block ?? (await latest())),
    options,
  ])
  expect(res.error, JSON.stringify(res.error)).toBeUndefined()
  return res.result as { signals: Record<string, unknown>[]; calls: { status: string; [k: string]: unknown }[] }
}
const kinds = (signals: Record<string, unknown>[]) => signals.map((s) => s.kind)

/** Sends the calls to anvil (automine): the block the last one was mined in. */
async function mine(calls: Record<string, unknown>[]) {
  let receipt: any
  for (const c of calls) {
    const hash = await rpcResult(devnet.anvil.url, 'eth_sendTransaction', [{ ...GAS, ...FEES, ...c }])
    receipt = await waitForReceipt(devnet.anvil.url, hash)
  }
  return BigInt(receipt.blockNumber)
}
const allowance = async (owner: string, spender: string, block: bigint) =>
  BigInt(
    await rpcResult(edge.url, 'eth_call', [
      { to: token, data: encodeCall('allowance(address,address)', [owner as `0x${string}`, spender as `0x${string}`]) },
      quantity(block),
    ]),
  )
const approve = (spender: string, amount: bigint) => ({
  from: alice,
  to: token,
  data: encodeCall('approve(address,uint256)', [spender as `0x${string}`, amount]),
})
const transfer = (to: string, amount: bigint) => ({
  from: alice,
  to: token,
  data: encodeCall('transfer(address,uint256)', [to as `0x${string}`, amount]),
})

describe('edgetrace_previewTransactions signals', () => {
  it('unlimitedApproval: an allowance of max uint256 (and 2^255), not a bounded one; the allowance as mined', async () => {
    const { signals } = await preview([approve(scenarios, MAX)])
    expect(signals).toEqual([
      {
        kind: 'unlimitedApproval',
        severity: 'warning',
        token,
        standard: 'erc20',
        spender: scenarios,
        amount: quantity(MAX),
      },
    ])
    const half = await preview([approve(scenarios, 1n << 255n)])
    expect(kinds(half.signals)).toEqual(['unlimitedApproval'])
    // Negative: a bounded allowance to a contract gives no signal at all.
    expect((await preview([approve(scenarios, 5n)])).signals).toEqual([])
    const mined = await mine([approve(scenarios, MAX)])
    expect(await allowance(alice, scenarios, mined)).toBe(MAX)
    // Already unlimited: re-approving changes nothing, and is not said again.
    expect((await preview([approve(scenarios, MAX)])).signals).toEqual([])
  })

  it('spenderIsEoa: an allowance to an address without code, a delegated EOA said as such; not to a contract', async () => {
    const block = await latest()
    const eoa = await preview([approve(bob, 3n)], block)
    expect(eoa.signals).toEqual([
      { kind: 'spenderIsEoa', severity: 'warning', spender: bob.toLowerCase(), delegated: false },
    ])
    expect(await rpcResult(edge.url, 'eth_getCode', [bob, quantity(block)])).toBe('0x')
    const viaDelegation = await preview([approve(delegated, 3n)], block)
    expect(viaDelegation.signals).toEqual([
      { kind: 'spenderIsEoa', severity: 'warning', spender: delegated, delegated: true, delegatedTo: scenarios },
    ])
    expect(await rpcResult(edge.url, 'eth_getCode', [delegated, quantity(block)])).toBe(`0xef0100${scenarios.slice(2)}`)
    // Negative: a contract spender; a revoked allowance (zero) to an EOA.
    expect((await preview([approve(scenarios, 3n)], block)).signals).toEqual([])
    expect((await preview([approve(bob, 0n)], block)).signals).toEqual([])
  })

  it('recipientIsEoa: tokens sent to an address without code; not to a contract', async () => {
    const { signals } = await preview([transfer(bob, 1n)])
    expect(signals).toEqual([
      { kind: 'recipientIsEoa', severity: 'info', token, recipient: bob.toLowerCase(), delegated: false },
    ])
    expect((await preview([transfer(scenarios, 1n)])).signals).toEqual([])
  })

  it("transferToTokenContract: tokens sent to the token's own address; not elsewhere", async () => {
    const { signals, calls } = await preview([transfer(token, 1n)])
    expect(calls[0]!.status).toBe('success')
    expect(signals).toEqual([{ kind: 'transferToTokenContract', severity: 'danger', token, recipient: token }])
    expect(kinds((await preview([transfer(scenarios, 1n)])).signals)).not.toContain('transferToTokenContract')
  })

  it('delegationInstalled: an EIP-7702 authorization, its authority recovered; none without one; the code as mined', async () => {
    const nonce = Number(await rpcResult(devnet.anvil.url, 'eth_getTransactionCount', [authority.address, 'latest']))
    const auth = await authority.signAuthorization({ contractAddress: scenarios, chainId: 31337, nonce })
    const rpcAuth = {
      chainId: quantity(auth.chainId),
      address: auth.address,
      nonce: quantity(auth.nonce),
      yParity: quantity(auth.yParity ?? 0),
      r: auth.r,
      s: auth.s,
    }
    const call = { from: alice, to: authority.address, data: encodeCall('increment()'), authorizationList: [rpcAuth] }
    const { signals } = await preview([call])
    expect(signals).toEqual([
      {
        kind: 'delegationInstalled',
        severity: 'danger',
        call: 0,
        authority: authority.address.toLowerCase(),
        delegate: scenarios,
        nonce: quantity(nonce),
      },
    ])
    // Negative: the same call without an authorization list; one signed for another chain.
    expect((await preview([{ ...call, authorizationList: undefined }])).signals).toEqual([])
    const other = await authority.signAuthorization({ contractAddress: scenarios, chainId: 1, nonce })
    const foreign = { ...rpcAuth, chainId: '0x1', yParity: quantity(other.yParity ?? 0), r: other.r, s: other.s }
    expect((await preview([{ ...call, authorizationList: [foreign] }])).signals).toEqual([])
    // One to the zero address clears a delegation: said as such, not as installed.
    const zero = '0x0000000000000000000000000000000000000000' as const
    const clear = await authority.signAuthorization({ contractAddress: zero, chainId: 31337, nonce })
    const clearing = { ...rpcAuth, address: zero, yParity: quantity(clear.yParity ?? 0), r: clear.r, s: clear.s }
    expect((await preview([{ ...call, authorizationList: [clearing] }])).signals).toEqual([
      { kind: 'delegationCleared', severity: 'info', call: 0, authority: authority.address.toLowerCase() },
    ])
    // Mined: the authority's code at the mined block is the delegation the signal named.
    const raw = await sender.signTransaction({
      type: 'eip7702',
      chainId: 31337,
      nonce: Number(await rpcResult(devnet.anvil.url, 'eth_getTransactionCount', [sender.address, 'latest'])),
      to: authority.address,
      data: encodeCall('increment()'),
      gas: 200_000n,
      maxFeePerGas: 20_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      authorizationList: [auth],
    })
    const receipt = await waitForReceipt(
      devnet.anvil.url,
      await rpcResult(devnet.anvil.url, 'eth_sendRawTransaction', [raw]),
    )
    expect(await rpcResult(edge.url, 'eth_getCode', [authority.address, receipt.blockNumber])).toBe(
      `0xef0100${scenarios.slice(2)}`,
    )
  })
})

describe('edgetrace_previewTransactions signals from the call tree', () => {
  it('selfDestruct: a SELFDESTRUCT that stands (Scenarios destroying its child); none in a plain call', async () => {
    const word = await rpcResult(edge.url, 'eth_call', [{ to: scenarios, data: encodeCall('lastChild()') }])
    const child = `0x${word.slice(26)}` as `0x${string}`
    const block = await latest()
    expect(await rpcResult(edge.url, 'eth_getCode', [child, quantity(block)])).not.toBe('0x')
    const call = { from: alice, to: scenarios, data: encodeCall('destroyChild(address)', [child]) }
    const { signals, calls } = await preview([call], block)
    expect(calls[0]!.status, JSON.stringify(calls[0])).toBe('success')
    expect(signals).toEqual([
      { kind: 'selfDestruct', severity: 'danger', call: 0, contract: child, beneficiary: scenarios, value: '0x0' },
    ])
    expect((await preview([{ from: alice, to: scenarios, data: encodeCall('increment()') }])).signals).toEqual([])
  })

  it('valueToNonPayable: ether to a contract with no payable path (the token), at the top and nested; not to a payable one', async () => {
    const direct = await preview([{ ...transfer(bob, 1n), value: quantity(1n) }])
    expect(direct.calls[0]!.status).toBe('failure')
    expect(direct.signals).toEqual([
      {
        kind: 'valueToNonPayable',
        severity: 'warning',
        call: 0,
        depth: 0,
        from: alice.toLowerCase(),
        to: token,
        value: '0x1',
        callFailed: true,
      },
    ])
    // Nested: Scenarios.pay forwards the value to the token, which refuses it; Scenarios' own frame
    // (payable, reverting with a reason after its call) is not said.
    const nested = await preview([
      { from: alice, to: scenarios, value: quantity(2n), data: encodeCall('pay(address,uint256)', [token, 2n]) },
    ])
    expect(nested.signals).toEqual([
      {
        kind: 'valueToNonPayable',
        severity: 'warning',
        call: 0,
        depth: 1,
        from: scenarios,
        to: token,
        value: '0x2',
        callFailed: true,
      },
    ])
    // Negative: Scenarios has receive(); a payment through it to an EOA.
    expect((await preview([{ from: alice, to: scenarios, value: quantity(1n) }])).signals).toEqual([])
    const paid = await preview([
      { from: alice, to: scenarios, value: quantity(2n), data: encodeCall('pay(address,uint256)', [bob, 2n]) },
    ])
    expect(paid.calls[0]!.status).toBe('success')
    expect(paid.signals).toEqual([])
  })
})

describe('edgetrace_previewTransactions newContract', () => {
  it('newContract: a spender contract younger than 30 days (the devnet is), its code absent at the block named; older: none', async () => {
    const block = await latest()
    const { signals } = await preview([approve(scenarios, 5n)], block, { firstInteractionBlocks: 0 })
    expect(signals).toHaveLength(1)
    const [signal] = signals as any[]
    expect(signal).toMatchObject({ kind: 'newContract', severity: 'warning', spender: scenarios, days: 30 })
    const now = BigInt((await rpcResult(edge.url, 'eth_getBlockByNumber', [quantity(block), false])).timestamp)
    if (signal.createdAfter) {
      // A block inside the window where the spender had no code yet (proven).
      expect(BigInt(signal.createdAfter.timestamp)).toBeGreaterThan(now - 30n * 86_400n)
      expect(await rpcResult(edge.url, 'eth_getCode', [scenarios, signal.createdAfter.number])).toBe('0x')
    } else {
      // Code already at block 1, a block inside the window.
      expect(BigInt(signal.createdBy.timestamp)).toBeGreaterThan(now - 30n * 86_400n)
    }
    // Bad option: named.
    const bad = await rpc(edge.url, 'edgetrace_previewTransactions', [
      [approve(scenarios, 5n)],
      'latest',
      { newContractDays: -1 },
    ])
    expect(bad.error.code).toBe(-32602)
    expect(bad.error.message).toMatch(/options\.newContractDays/)
    // Three days later, with a one-day window: Scenarios had its code before the window, no signal.
    await rpcResult(devnet.anvil.url, 'evm_increaseTime', [3 * 86_400])
    await rpcResult(devnet.anvil.url, 'evm_mine')
    const later = await preview([approve(scenarios, 5n)], await latest(), {
      newContractDays: 1,
      firstInteractionBlocks: 0,
    })
    expect(later.signals).toEqual([])
    // A contract deployed inside that window is new.
    const fresh = await deploy(devnet.anvil.url, storageContractInitCode(1))
    const young = await preview([approve(fresh, 5n)], await latest(), { newContractDays: 1, firstInteractionBlocks: 0 })
    expect(kinds(young.signals)).toEqual(['newContract'])
  })
})

describe('edgetrace_previewTransactions firstInteraction', () => {
  it('firstInteraction: a contract the account sent nothing to in the window, said with the window; not after it did', async () => {
    const call = { from: bob, to: scenarios, data: encodeCall('increment()') }
    const options = { newContractDays: 0, firstInteractionBlocks: 8 }
    const block = await latest()
    const { signals } = await preview([call], block, options)
    expect(signals).toEqual([
      {
        kind: 'firstInteraction',
        severity: 'info',
        contract: scenarios,
        window: { from: quantity(block - 7n), to: quantity(block) },
      },
    ])
    // Negative: a call to an address without code; the same call once bob has sent one to Scenarios.
    expect((await preview([{ from: bob, to: alice, value: '0x1' }], block, options)).signals).toEqual([])
    const mined = await mine([call])
    expect((await preview([call], mined, options)).signals).toEqual([])
    // Past the window (8 empty blocks later) it is a first interaction again, as far as the window says.
    await rpcResult(devnet.anvil.url, 'anvil_mine', ['0x8'])
    const later = await latest()
    const again = await preview([call], later, options)
    expect(again.signals).toEqual([
      {
        kind: 'firstInteraction',
        severity: 'info',
        contract: scenarios,
        window: { from: quantity(later - 7n), to: quantity(later) },
      },
    ])
    const bad = await rpc(edge.url, 'edgetrace_previewTransactions', [
      [call],
      'latest',
      { firstInteractionBlocks: 5000 },
    ])
    expect(bad.error.code).toBe(-32602)
    expect(bad.error.message).toMatch(/options\.firstInteractionBlocks/)
  })
})
