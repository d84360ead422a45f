import { encodeFunctionData } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeCall } from '../src/node/devnet/abi.js'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { quantity } from '../src/utils/hex.js'
import { compileSolidity } from './src/compileSolidity.js'
import { PERMIT_TOKEN_CONTRACT } from './src/permitTokenContract.js'
import { createProxy } from './src/createProxy.js'
import { eip712DomainType, eip2612PermitTypes } from './src/eip2612PermitTypes.js'
import { PERMIT2_ABI, permit2Types } from './src/permit2TypedData.js'
import { PERMIT2_ADDRESS, PERMIT2_DOMAIN, withPermit2Devnet } from './src/permit2Devnet.js'
import { deploy, rpc, rpcResult, storageContractInitCode, sendMined } from './src/rpc.js'

// edgetrace_previewTypedData on the devnet: EIP-2612, DAI-style and Permit2 typed data previewed
// against contracts compiled here with solc and Permit2's real code at its canonical address
// (test/fixtures/permit2), then each signature made by anvil's eth_signTypedData_v4 for the account's
// key and used on-chain by the spender (a token's permit, Permit2's permit, permitTransferFrom), the
// spender's pull mined: the allowance, expiration and nonce proven after are what the preview said, the
// owner's balance after the pull is its worst case's. Then the spender signals (newContract,
// firstInteraction), each positive and negative.

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;
${PERMIT_TOKEN_CONTRACT}
/** DAI's shape: nonces, allowance, approve and transferFrom; its permit is not called here. */
contract DaiLike {
    string public constant name = "Dai Stablecoin";
    string public constant symbol = "DAI";
    uint8 public constant decimals = 18;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => uint256) public nonces;
    constructor() { balanceOf[msg.sender] = 5e18; nonces[msg.sender] = 3; }
    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        return true;
    }
    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        allowance[from][msg.sender] -= value;
        balanceOf[from] -= value;
        balanceOf[to] += value;
        return true;
    }
}`

const PERMIT2 = PERMIT2_ADDRESS.toLowerCase() as `0x${string}`
const ETHER = 10n ** 18n
const MAX = 2n ** 256n - 1n
const FAR = 2n ** 40n
const GAS = { gas: quantity(300_000) }

let devnet: Devnet
let edge: RunningEdgetrace
let stop: () => Promise<void>
let alice: `0x${string}`
let bob: `0x${string}`
let carol: `0x${string}`
let pmt: `0x${string}`
let dai: `0x${string}`

const send = async (tx: Record<string, unknown>) =>
  BigInt((await sendMined(devnet.anvil.url, { ...GAS, ...tx })).blockNumber)

beforeAll(async () => {
  ;({ devnet, edge, stop } = await withPermit2Devnet())
  ;[alice, bob, carol] = devnet.accounts.map((a) => a.toLowerCase()) as [`0x${string}`, `0x${string}`, `0x${string}`]
  const compiled = compileSolidity('Permits.sol', SOURCE)
  const lower = (a: string) => a.toLowerCase() as `0x${string}`
  pmt = lower(await deploy(devnet.anvil.url, compiled.PermitToken!.creation))
  dai = lower(await deploy(devnet.anvil.url, compiled.DaiLike!.creation))
}, 60_000)
afterAll(() => stop())

/** anvil's eth_signTypedData_v4: the typed data signed with the account's key. */
const signTyped = (account: string, typed: unknown): Promise<`0x${string}`> =>
  rpcResult(devnet.anvil.url, 'eth_signTypedData_v4', [account, JSON.stringify(typed)])
/** A call of Permit2 from `from`, mined; its block number. */
const callPermit2 = (from: string, data: string) => send({ from, to: PERMIT2, data })

const permitData = (message: Record<string, unknown>) => ({
  types: eip2612PermitTypes(),
  primaryType: 'Permit',
  domain: { name: 'Permit Token', version: '1', chainId: 31337, verifyingContract: pmt },
  message,
})
const PMT_INFO = () => ({ address: pmt, standard: 'erc20', symbol: 'PMT', name: 'Permit Token', decimals: 18 })

async function preview(account: string, typed: unknown, block: unknown = 'latest', options?: unknown) {
  const res = await rpc(edge.url, 'edgetrace_previewTypedData', [account, typed, block, ...(options ? [options] : [])])
  expect(res.error, JSON.stringify(res.error)).toBeUndefined()
  return res.result
}

/** An eth_call's answer as its 32-byte words. */
const words = (data: string) =>
  Array.from({ length: (data.length - 2) / 64 }, (_, i) => BigInt(`0x${data.slice(2 + i * 64, 66 + i * 64)}`))
/** A token's balanceOf(owner) proven at a block (edgetrace's eth_call). */
const balanceAt = async (token: `0x${string}`, owner: `0x${string}`, block: bigint) =>
  BigInt(
    await rpcResult(edge.url, 'eth_call', [
      { to: token, data: encodeCall('balanceOf(address)', [owner]) },
      quantity(block),
    ]),
  )

describe('edgetrace_previewTypedData', () => {
  it('EIP-2612 permit: what it allows, then signed by anvil, submitted and mined: the allowance is what the preview said, the pull by the spender mined leaves what its worst case said; the same signature again has a stale nonce', async () => {
    const value = 25n * ETHER
    const typed = permitData({
      owner: alice,
      spender: carol,
      value: value.toString(),
      nonce: '0',
      deadline: FAR.toString(),
    })
    const head = BigInt(await rpcResult(devnet.anvil.url, 'eth_blockNumber'))
    const p = await preview(alice, JSON.stringify(typed), quantity(head))
    expect(p).toMatchObject({
      recognized: true,
      kind: 'eip2612',
      account: alice,
      owner: alice,
      spender: carol,
      block: { number: quantity(head) },
      trust: { mode: 'upstream' },
      deadline: { value: quantity(FAR), passed: false },
      usable: true,
      problems: [],
    })
    expect(p.grants).toEqual([
      {
        token: PMT_INFO(),
        amount: quantity(value),
        expiration: null,
        current: { amount: '0x0', expiration: null, nonce: '0x0' },
        nonce: { signed: '0x0', current: '0x0', valid: true },
        balance: quantity(10n ** 24n),
        atRisk: quantity(value),
        // The permit's allowance set, then carol pulls all of it: alice loses the amount.
        worstCase: { status: 'success', balanceAfter: quantity(10n ** 24n - value), loss: quantity(value) },
      },
    ])
    expect(p.signals).toEqual([{ kind: 'spenderIsEoa', severity: 'warning', spender: carol, delegated: false }])

    const signature = await signTyped(alice, typed)
    const r = `0x${signature.slice(2, 66)}` as `0x${string}`
    const s = `0x${signature.slice(66, 130)}` as `0x${string}`
    const v = Number.parseInt(signature.slice(130, 132), 16)
    const data = encodeCall('permit(address,address,uint256,uint256,uint8,bytes32,bytes32)', [
      alice,
      carol,
      value,
      FAR,
      v,
      r,
      s,
    ])
    const mined = await send({ from: bob, to: pmt, data })
    const allowance = await rpc(edge.url, 'eth_call', [
      { to: pmt, data: encodeCall('allowance(address,address)', [alice, carol]) },
      quantity(mined),
    ])
    expect(BigInt(allowance.result)).toBe(BigInt(p.grants[0].amount))
    // carol pulls all of it, mined: alice's balance proven after is the worst case's.
    const pulled = await send({
      from: carol,
      to: pmt,
      data: encodeCall('transferFrom(address,address,uint256)', [alice, carol, value]),
    })
    const left = await rpc(edge.url, 'eth_call', [
      { to: pmt, data: encodeCall('balanceOf(address)', [alice]) },
      quantity(pulled),
    ])
    expect(quantity(BigInt(left.result))).toBe(p.grants[0].worstCase.balanceAfter)

    // The signature once used: its nonce is spent, the allowance in force is what it granted.
    const again = await preview(alice, typed, quantity(mined))
    expect(again.usable).toBe(false)
    expect(again.grants[0].nonce).toEqual({ signed: '0x0', current: '0x1', valid: false })
    expect(again.grants[0].current.amount).toBe(quantity(value))
    // carol's pull spent the allowance: none in force after it.
    expect((await preview(alice, typed, quantity(pulled))).grants[0].current.amount).toBe('0x0')
    expect(again.problems).toEqual(['grants[0]: nonce 0 is not the current nonce 1: the signature cannot be used'])
  })

  it("an expired deadline is past the block's time, and a permit of another owner than the signer does not verify", async () => {
    const typed = permitData({ owner: bob, spender: carol, value: '1', nonce: '0', deadline: '1' })
    const p = await preview(alice, typed)
    const block = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', [p.block.number, false])
    expect(p.deadline).toEqual({ value: '0x1', blockTime: block.timestamp, passed: true })
    expect(p.owner).toBe(bob)
    expect(p.usable).toBe(false)
    expect(p.problems).toEqual([
      `the permit's owner ${bob} is not the signing account ${alice}: the signature does not verify`,
      `the deadline 1 is past the block's time ${BigInt(block.timestamp)}: the signature cannot be used`,
    ])
  })

  it("a permit signed for another chain (domain.chainId) is said to be for another chain; this chain's id, as a number or a string, is not", async () => {
    const message = { owner: alice, spender: carol, value: '1', nonce: '0', deadline: FAR.toString() }
    const other = { ...permitData(message), domain: { ...permitData(message).domain, chainId: 1 } }
    const p = await preview(alice, other)
    expect(p.usable).toBe(false)
    expect(p.problems).toContain("domain.chainId 1 is not this chain's 31337: the signature is for another chain")
    // (Earlier tests may have used alice's nonce 0: only the chain's problem is looked for.)
    for (const chainId of [31337, '31337', '0x7a69']) {
      const here = await preview(alice, { ...permitData(message), domain: { ...permitData(message).domain, chainId } })
      expect(here.problems.filter((text: string) => text.startsWith('domain.chainId'))).toEqual([])
    }
  })

  it('DAI-style permit (holder, nonce, expiry, allowed): the whole uint256 allowed, nonces(holder) checked, expiry 0 is none', async () => {
    const typed = {
      types: {
        EIP712Domain: eip712DomainType(),
        Permit: [
          { name: 'holder', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'nonce', type: 'uint256' },
          { name: 'expiry', type: 'uint256' },
          { name: 'allowed', type: 'bool' },
        ],
      },
      primaryType: 'Permit',
      domain: { name: 'Dai Stablecoin', version: '1', chainId: 31337, verifyingContract: dai },
      message: { holder: alice, spender: bob, nonce: 3, expiry: 0, allowed: true },
    }
    const p = await preview(alice, typed)
    expect(p).toMatchObject({ recognized: true, kind: 'dai', owner: alice, spender: bob, usable: true, problems: [] })
    expect(p.deadline.passed).toBe(false)
    expect(p.grants).toEqual([
      {
        token: { address: dai, standard: 'erc20', symbol: 'DAI', name: 'Dai Stablecoin', decimals: 18 },
        amount: quantity(MAX),
        expiration: null,
        current: { amount: '0x0', expiration: null, nonce: '0x3' },
        nonce: { signed: '0x3', current: '0x3', valid: true },
        balance: quantity(5n * ETHER),
        atRisk: quantity(5n * ETHER),
        worstCase: { status: 'success', balanceAfter: '0x0', loss: quantity(5n * ETHER) },
      },
    ])
    expect(p.signals).toEqual([
      {
        kind: 'unlimitedApproval',
        severity: 'warning',
        token: dai,
        standard: 'erc20',
        spender: bob,
        amount: quantity(MAX),
      },
      { kind: 'spenderIsEoa', severity: 'warning', spender: bob, delegated: false },
    ])
    // allowed: false revokes: nothing allowed, no signal.
    const revoke = await preview(alice, { ...typed, message: { ...typed.message, allowed: false } })
    expect(revoke.grants[0].amount).toBe('0x0')
    expect(revoke.signals).toEqual([])
    expect(revoke.grants[0].worstCase).toBeNull()
    const stale = await preview(alice, { ...typed, message: { ...typed.message, nonce: 2 } })
    expect(stale.grants[0].nonce).toEqual({ signed: '0x2', current: '0x3', valid: false })
    expect(stale.usable).toBe(false)
  })

  it("Permit2 PermitSingle (real Permit2): no ERC-20 allowance to Permit2, its worst case fails; with one, signed, permit() by the spender and its transferFrom mined: allowance, expiration, nonce and balance after are the preview's", async () => {
    const amount = 40n * ETHER
    const single = (details: Record<string, string>) => ({
      types: permit2Types('PermitSingle'),
      primaryType: 'PermitSingle',
      domain: PERMIT2_DOMAIN,
      message: { details, spender: carol, sigDeadline: FAR.toString() },
    })
    const typed = single({ token: pmt, amount: amount.toString(), expiration: '2000000000', nonce: '0' })
    // alice has not approved Permit2 on the token: the spender can take nothing through it.
    const before = await preview(alice, typed)
    expect(before).toMatchObject({ recognized: true, kind: 'permit2', owner: alice, spender: carol, usable: true })
    const balance = BigInt(before.grants[0].balance)
    expect(before.grants[0].worstCase).toEqual({
      status: 'failure',
      balanceAfter: quantity(balance),
      loss: '0x0',
    })

    await send({ from: alice, to: pmt, data: encodeCall('approve(address,uint256)', [PERMIT2, MAX]) })
    const head = BigInt(await rpcResult(devnet.anvil.url, 'eth_blockNumber'))
    const p = await preview(alice, typed, quantity(head))
    expect(p).toMatchObject({ kind: 'permit2', usable: true, problems: [] })
    expect(p.grants).toEqual([
      {
        token: PMT_INFO(),
        amount: quantity(amount),
        expiration: quantity(2_000_000_000n),
        current: { amount: '0x0', expiration: '0x0', nonce: '0x0' },
        nonce: { signed: '0x0', current: '0x0', valid: true },
        balance: quantity(balance),
        atRisk: quantity(amount),
        // Permit2's allowance set as permit() sets it, then carol's Permit2 transferFrom of all of it.
        worstCase: { status: 'success', balanceAfter: quantity(balance - amount), loss: quantity(amount) },
      },
    ])
    expect(p.signals).toEqual([{ kind: 'spenderIsEoa', severity: 'warning', spender: carol, delegated: false }])

    // Signed with alice's key (anvil's eth_signTypedData_v4); carol calls Permit2.permit with it.
    const signature = await signTyped(alice, typed)
    const permitted = await callPermit2(
      carol,
      encodeFunctionData({
        abi: PERMIT2_ABI.permitSingle,
        functionName: 'permit',
        args: [
          alice,
          {
            details: { token: pmt, amount, expiration: 2_000_000_000, nonce: 0 },
            spender: carol,
            sigDeadline: FAR,
          },
          signature,
        ],
      }),
    )
    const allowed = await rpcResult(edge.url, 'eth_call', [
      { to: PERMIT2, data: encodeCall('allowance(address,address,address)', [alice, pmt, carol]) },
      quantity(permitted),
    ])
    expect(words(allowed)).toEqual([amount, 2_000_000_000n, 1n])
    // carol pulls it all through Permit2: alice is left what the worst case said.
    const pulled = await callPermit2(
      carol,
      encodeCall('transferFrom(address,address,uint160,address)', [alice, carol, amount, pmt]),
    )
    expect(quantity(await balanceAt(pmt, alice, pulled))).toBe(p.grants[0].worstCase.balanceAfter)

    // The signature once used: the nonce it signed is spent.
    const again = await preview(alice, typed, quantity(permitted))
    expect(again.grants[0].current).toEqual({
      amount: quantity(amount),
      expiration: quantity(2_000_000_000n),
      nonce: '0x1',
    })
    expect(again.grants[0].nonce).toEqual({ signed: '0x0', current: '0x1', valid: false })
    expect(again.usable).toBe(false)
    expect(again.problems).toEqual(['grants[0]: nonce 0 is not the current nonce 1: the signature cannot be used'])

    // An expiration already past: the allowance the permit would set cannot be spent (Permit2 reverts
    // AllowanceExpired), said, and the worst case's pull fails.
    const expired = await preview(
      alice,
      single({ token: pmt, amount: amount.toString(), expiration: '1000', nonce: '1' }),
      quantity(permitted),
    )
    expect(expired.usable).toBe(false)
    expect(expired.problems).toEqual([
      `grants[0]: expiration 1000 is past the block's time ${BigInt(expired.deadline.blockTime)}: Permit2 would not spend the allowance it sets`,
    ])
    expect(expired.grants[0].worstCase).toMatchObject({ status: 'failure', loss: '0x0' })

    // Permit2's max uint160 is unlimited, said with its expiration.
    const max = await preview(
      alice,
      single({ token: pmt, amount: '0xffffffffffffffffffffffffffffffffffffffff', expiration: '0', nonce: '1' }),
    )
    expect(max.signals).toEqual([
      {
        kind: 'unlimitedApproval',
        severity: 'warning',
        token: pmt,
        standard: 'permit2',
        spender: carol,
        amount: quantity(2n ** 160n - 1n),
        expiration: '0x0',
      },
      { kind: 'spenderIsEoa', severity: 'warning', spender: carol, delegated: false },
    ])
  })

  it('Permit2 PermitBatch (real Permit2): two tokens, signed, permit() by the spender and both pulls mined as the worst cases said; the same batch then has stale nonces', async () => {
    await send({ from: alice, to: dai, data: encodeCall('approve(address,uint256)', [PERMIT2, MAX]) })
    const batch = {
      types: permit2Types('PermitBatch'),
      primaryType: 'PermitBatch',
      domain: PERMIT2_DOMAIN,
      message: {
        details: [
          { token: pmt, amount: (5n * ETHER).toString(), expiration: '2000000000', nonce: '0' },
          { token: dai, amount: (2n * ETHER).toString(), expiration: '2000000000', nonce: '0' },
        ],
        spender: bob,
        sigDeadline: FAR.toString(),
      },
    }
    const b = await preview(alice, batch)
    expect(b).toMatchObject({ kind: 'permit2', spender: bob, usable: true, problems: [] })
    expect(b.grants.map((g: any) => [g.token.symbol, g.amount, g.nonce, g.worstCase.status, g.worstCase.loss])).toEqual(
      [
        ['PMT', quantity(5n * ETHER), { signed: '0x0', current: '0x0', valid: true }, 'success', quantity(5n * ETHER)],
        ['DAI', quantity(2n * ETHER), { signed: '0x0', current: '0x0', valid: true }, 'success', quantity(2n * ETHER)],
      ],
    )
    const signature = await signTyped(alice, batch)
    const details = [pmt, dai].map((token, i) => ({
      token,
      amount: BigInt(batch.message.details[i]!.amount),
      expiration: 2_000_000_000,
      nonce: 0,
    }))
    const permitted = await callPermit2(
      bob,
      encodeFunctionData({
        abi: PERMIT2_ABI.permitBatch,
        functionName: 'permit',
        args: [alice, { details, spender: bob, sigDeadline: FAR }, signature],
      }),
    )
    for (const [i, d] of details.entries()) {
      const allowed = await rpcResult(edge.url, 'eth_call', [
        { to: PERMIT2, data: encodeCall('allowance(address,address,address)', [alice, d.token, bob]) },
        quantity(permitted),
      ])
      expect(words(allowed), d.token).toEqual([BigInt(b.grants[i].amount), BigInt(b.grants[i].expiration), 1n])
    }
    let last = permitted
    for (const d of details) {
      last = await callPermit2(
        bob,
        encodeCall('transferFrom(address,address,uint160,address)', [alice, bob, d.amount, d.token]),
      )
    }
    for (const [i, d] of details.entries()) {
      expect(quantity(await balanceAt(d.token, alice, last))).toBe(b.grants[i].worstCase.balanceAfter)
    }
    const stale = await preview(alice, batch, quantity(permitted))
    expect(stale.grants.map((g: any) => g.nonce.valid)).toEqual([false, false])
    expect(stale.problems).toEqual([
      'grants[0]: nonce 0 is not the current nonce 1: the signature cannot be used',
      'grants[1]: nonce 0 is not the current nonce 1: the signature cannot be used',
    ])
  })

  it('Permit2 PermitTransferFrom and PermitBatchTransferFrom (real Permit2): the ERC-20 allowance to Permit2, an unordered nonce used or not (nonceBitmap); signed, permitTransferFrom by the spender mined leaves the worst case', async () => {
    // Nonce 300 (word 1, bit 44) invalidated by alice.
    await callPermit2(alice, encodeCall('invalidateUnorderedNonces(uint256,uint256)', [1n, 1n << 44n]))
    const typed = (nonce: bigint) => ({
      types: permit2Types('PermitTransferFrom'),
      primaryType: 'PermitTransferFrom',
      domain: PERMIT2_DOMAIN,
      message: {
        permitted: { token: pmt, amount: '1000' },
        spender: carol,
        nonce: nonce.toString(),
        deadline: FAR.toString(),
      },
    })
    const fresh = await preview(alice, typed(301n))
    expect(fresh).toMatchObject({ recognized: true, kind: 'permit2Transfer', spender: carol, usable: true })
    const balance = BigInt(fresh.grants[0].balance)
    // What Permit2 may pull at all: alice's ERC-20 allowance to it (MAX, less what the PermitSingle and PermitBatch pulls took).
    const toPermit2 = await rpcResult(edge.url, 'eth_call', [
      { to: pmt, data: encodeCall('allowance(address,address)', [alice, PERMIT2]) },
      fresh.block.number,
    ])
    expect(BigInt(toPermit2)).toBe(MAX - 45n * ETHER)
    expect(fresh.grants[0]).toMatchObject({
      amount: quantity(1000n),
      current: { amount: quantity(MAX - 45n * ETHER), expiration: null, nonce: null },
      nonce: { signed: quantity(301n), current: null, valid: true },
      atRisk: quantity(1000n),
      worstCase: { status: 'success', balanceAfter: quantity(balance - 1000n), loss: quantity(1000n) },
    })
    expect(fresh.signals).toEqual([{ kind: 'spenderIsEoa', severity: 'warning', spender: carol, delegated: false }])
    // A contract spender and a limited amount, its age and first interaction not asked: no signal.
    const toContract = await preview(
      alice,
      { ...typed(301n), message: { ...typed(301n).message, spender: pmt } },
      'latest',
      { newContractDays: 0, firstInteractionBlocks: 0 },
    )
    expect(toContract.signals).toEqual([])
    const used = await preview(alice, typed(300n))
    expect(used.grants[0].nonce.valid).toBe(false)
    expect(used.problems).toEqual(['grants[0]: nonce 300 is already used on Permit2: the signature cannot be used'])

    // Signed with alice's key; carol calls permitTransferFrom with it, to herself.
    const signature = await signTyped(alice, typed(301n))
    const mined = await callPermit2(
      carol,
      encodeFunctionData({
        abi: PERMIT2_ABI.permitTransferFrom,
        functionName: 'permitTransferFrom',
        args: [
          { permitted: { token: pmt, amount: 1000n }, nonce: 301n, deadline: FAR },
          { to: carol, requestedAmount: 1000n },
          alice,
          signature,
        ],
      }),
    )
    expect(quantity(await balanceAt(pmt, alice, mined))).toBe(fresh.grants[0].worstCase.balanceAfter)
    const spent = await preview(alice, typed(301n), quantity(mined))
    expect(spent.grants[0].nonce).toEqual({ signed: quantity(301n), current: null, valid: false })
    expect(spent.problems).toEqual(['grants[0]: nonce 301 is already used on Permit2: the signature cannot be used'])

    // PermitBatchTransferFrom: two tokens under one unordered nonce, each pull as its worst case said.
    const batch = {
      types: permit2Types('PermitBatchTransferFrom'),
      primaryType: 'PermitBatchTransferFrom',
      domain: PERMIT2_DOMAIN,
      message: {
        permitted: [
          { token: pmt, amount: '700' },
          { token: dai, amount: '300' },
        ],
        spender: carol,
        nonce: '302',
        deadline: FAR.toString(),
      },
    }
    const b = await preview(alice, batch, quantity(mined))
    expect(b).toMatchObject({ kind: 'permit2Transfer', usable: true, problems: [] })
    expect(b.grants.map((g: any) => [g.token.symbol, g.nonce.valid, g.worstCase.status, g.worstCase.loss])).toEqual([
      ['PMT', true, 'success', quantity(700n)],
      ['DAI', true, 'success', quantity(300n)],
    ])
    const batchSignature = await signTyped(alice, batch)
    const pulled = await callPermit2(
      carol,
      encodeFunctionData({
        abi: PERMIT2_ABI.permitBatchTransferFrom,
        functionName: 'permitTransferFrom',
        args: [
          {
            permitted: [
              { token: pmt, amount: 700n },
              { token: dai, amount: 300n },
            ],
            nonce: 302n,
            deadline: FAR,
          },
          [
            { to: carol, requestedAmount: 700n },
            { to: carol, requestedAmount: 300n },
          ],
          alice,
          batchSignature,
        ],
      }),
    )
    expect(quantity(await balanceAt(pmt, alice, pulled))).toBe(b.grants[0].worstCase.balanceAfter)
    expect(quantity(await balanceAt(dai, alice, pulled))).toBe(b.grants[1].worstCase.balanceAfter)
    expect((await preview(alice, batch, quantity(pulled))).grants.map((g: any) => g.nonce.valid)).toEqual([
      false,
      false,
    ])
  })

  it('spender signals: newContract (a spender contract younger than options.newContractDays) and firstInteraction (the account sent it nothing in the last options.firstInteractionBlocks blocks), each positive and negative', async () => {
    const router = (await deploy(devnet.anvil.url, storageContractInitCode(1))).toLowerCase() as `0x${string}`
    const typed = (spender: string) =>
      permitData({ owner: alice, spender, value: '5', nonce: '1', deadline: FAR.toString() })
    const head = BigInt(await rpcResult(devnet.anvil.url, 'eth_blockNumber'))
    const p = await preview(alice, typed(router), quantity(head))
    expect(p.signals.map((s: any) => s.kind)).toEqual(['newContract', 'firstInteraction'])
    const [young, first] = p.signals
    // The devnet is younger than 30 days: a block inside the window without its code (proven), or
    // code at block 1 of a chain younger than the window.
    expect(young).toMatchObject({ kind: 'newContract', severity: 'warning', spender: router, days: 30 })
    const now = BigInt((await rpcResult(edge.url, 'eth_getBlockByNumber', [quantity(head), false])).timestamp)
    const inside = young.createdAfter ?? young.createdBy
    expect(BigInt(inside.timestamp)).toBeGreaterThan(now - 30n * 86_400n)
    if (young.createdAfter) expect(await rpcResult(edge.url, 'eth_getCode', [router, inside.number])).toBe('0x')
    expect(first).toEqual({
      kind: 'firstInteraction',
      severity: 'info',
      contract: router,
      window: { from: quantity(head - 31n), to: quantity(head) },
    })
    // Off by options; an EOA spender has neither (it has spenderIsEoa).
    expect(
      (await preview(alice, typed(router), quantity(head), { newContractDays: 0, firstInteractionBlocks: 0 })).signals,
    ).toEqual([])
    expect((await preview(alice, typed(carol), quantity(head))).signals.map((s: any) => s.kind)).toEqual([
      'spenderIsEoa',
    ])

    // alice sends the router a transaction: no longer a first interaction, inside the window.
    const sent = await send({ from: alice, to: router })
    const after = await preview(alice, typed(router), quantity(sent), { newContractDays: 0 })
    expect(after.signals).toEqual([])
    // bob never did: his permit to the same router is his first interaction.
    const bobs = await preview(
      bob,
      { ...typed(router), message: { ...typed(router).message, owner: bob } },
      quantity(sent),
      {
        newContractDays: 0,
        firstInteractionBlocks: 4,
      },
    )
    expect(bobs.signals).toEqual([
      {
        kind: 'firstInteraction',
        severity: 'info',
        contract: router,
        window: { from: quantity(sent - 3n), to: quantity(sent) },
      },
    ])

    // Three days later with a one-day window: a contract of the devnet's first blocks is older, no
    // newContract; one deployed now is new. (30 blocks mined after the jump: the search's probes, 7
    // evenly between block 1 and the head, then land inside the window; with all of them before it,
    // its bound answers age 'unknown'.)
    await rpcResult(devnet.anvil.url, 'evm_increaseTime', [3 * 86_400])
    await rpcResult(devnet.anvil.url, 'anvil_mine', ['0x1e'])
    const early = Object.values(devnet.contracts)[0]!.toLowerCase()
    const old = await preview(alice, typed(early), 'latest', { newContractDays: 1, firstInteractionBlocks: 0 })
    expect(old.signals).toEqual([])
    const fresh = (await deploy(devnet.anvil.url, storageContractInitCode(2))).toLowerCase()
    const fresher = await preview(alice, typed(fresh), 'latest', { newContractDays: 1, firstInteractionBlocks: 0 })
    expect(fresher.signals).toEqual([
      expect.objectContaining({ kind: 'newContract', severity: 'warning', spender: fresh, days: 1 }),
    ])

    // Bad options: -32602 naming the option.
    const cases: [unknown, string][] = [
      [
        { newContractDays: -1 },
        'invalid argument 3: options.newContractDays: expected a number of days from 0 to 36500',
      ],
      [{ firstInteractionBlocks: 5000 }, 'invalid argument 3: options.firstInteractionBlocks: expected a whole number'],
      [
        { account: alice },
        'invalid argument 3: options.account: unknown option (known: newContractDays, firstInteractionBlocks)',
      ],
      ['days', 'invalid argument 3: expected preview options object'],
    ]
    for (const [options, message] of cases) {
      const res = await rpc(edge.url, 'edgetrace_previewTypedData', [alice, typed(router), 'latest', options])
      expect(res.error?.code, JSON.stringify(res)).toBe(-32602)
      expect(res.error.message).toContain(message)
    }
  })

  it('upstream round trips of a Permit2 PermitSingle preview to a contract spender: cold, warm, and warm with the spender signals, then none', async () => {
    const proxy = await createProxy(devnet.anvil.url)
    const cold = await startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague' })
    try {
      const typed = {
        types: permit2Types('PermitSingle'),
        primaryType: 'PermitSingle',
        domain: PERMIT2_DOMAIN,
        message: {
          details: { token: dai, amount: '5', expiration: '0', nonce: '1' },
          spender: pmt,
          sigDeadline: FAR.toString(),
        },
      }
      const head = { blockHash: (await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', ['latest', false])).hash }
      const trips = async (options: object) => {
        const before = proxy.requests
        const res = await rpcResult(cold.url, 'edgetrace_previewTypedData', [alice, typed, head, options])
        expect(res.grants[0].worstCase.status).toBe('success')
        return { trips: proxy.requests - before, signals: res.signals.map((s: any) => s.kind) }
      }
      const off = { newContractDays: 0, firstInteractionBlocks: 0 }
      // Cold (the server's first request is its chain id): the header with every read's and the worst
      // case's access lists, then one batch of what they name — the worst case's pull prepared with the
      // reads (it was 7 requests when the pull fetched its senders and slots on demand). Warm, at the
      // block's hash: nothing.
      expect(await trips(off)).toEqual({ trips: 3, signals: [] })
      expect(await trips(off)).toEqual({ trips: 0, signals: [] })
      // The spender signals, warm otherwise: the headers of newContract's probes (its guess about 30
      // days back is block 1 here) and of firstInteraction's window, all by the block's parent links
      // in one batch (each header asked once for both walks); the spender's proof at block 1 and the
      // account's at the window's start; (alice sent in the window) its bodies. Repeated: nothing
      // (it was 5 requests each time, the headers asked by number).
      expect(await trips({})).toEqual({ trips: 3, signals: ['newContract', 'firstInteraction'] })
      expect(await trips({})).toEqual({ trips: 0, signals: ['newContract', 'firstInteraction'] })
    } finally {
      await cold.close()
      await proxy.stop()
    }
  })

  it('an unknown primary type is answered decoded, recognized: false, with no claims', async () => {
    const typed = {
      types: {
        EIP712Domain: [{ name: 'name', type: 'string' }],
        Mail: [
          { name: 'to', type: 'address' },
          { name: 'contents', type: 'string' },
        ],
      },
      primaryType: 'Mail',
      domain: { name: 'Ether Mail' },
      message: { to: bob, contents: 'hello' },
    }
    const p = await preview(alice, JSON.stringify(typed))
    expect(p).toEqual({ recognized: false, account: alice, typedData: typed, trust: expect.any(Object) })
    // A Permit whose fields are not EIP-2612's nor DAI's is not recognised either.
    const odd = permitData({ owner: alice, spender: carol, value: '1', nonce: '0', deadline: '1' })
    odd.types.Permit = odd.types.Permit.slice(0, 4)
    expect((await preview(alice, odd)).recognized).toBe(false)
  })

  it('bad input is -32602 naming the argument; the server answers on', async () => {
    const cases: [unknown[], string][] = [
      [['0x12', {}], 'invalid argument 0'],
      [[alice, 'not json'], 'invalid argument 1: typedData: not JSON'],
      [[alice, { types: {}, message: {} }], 'invalid argument 1: typedData.primaryType: expected a string'],
      [
        [alice, { types: { A: [] }, primaryType: 'B', message: {} }],
        'invalid argument 1: typedData.primaryType: B is not in typedData.types',
      ],
      [
        [alice, { types: { A: [{ name: 1 }] }, primaryType: 'A', message: {} }],
        'invalid argument 1: typedData.types.A[0]',
      ],
      [
        [alice, permitData({ owner: alice, spender: carol, value: 'lots', nonce: '0', deadline: '1' })],
        'invalid argument 1: typedData.message.value: expected an unsigned integer',
      ],
      [
        [alice, permitData({ owner: '0x1', spender: carol, value: '1', nonce: '0', deadline: '1' })],
        'invalid argument 1: typedData.message.owner: expected an address',
      ],
    ]
    for (const [params, message] of cases) {
      const res = await rpc(edge.url, 'edgetrace_previewTypedData', params)
      expect(res.error?.code, JSON.stringify(res)).toBe(-32602)
      expect(res.error.message).toContain(message)
    }
    expect(await rpcResult(edge.url, 'eth_chainId')).toBe('0x7a69')
  })

  it('is served with eth: a listener without eth answers -32601 naming --http.api', async () => {
    const noEth = await startEdgetrace({ upstream: devnet.anvil.url, port: 0, hardfork: 'prague', api: ['debug'] })
    try {
      const res = await rpc(noEth.url, 'edgetrace_previewTypedData', [alice, permitData({})])
      expect(res.error.code).toBe(-32601)
      expect(res.error.message).toMatch(/served with the eth namespace: add eth to --http.api/)
    } finally {
      await noEth.close()
    }
  })
})
