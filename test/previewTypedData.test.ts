import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeCall } from '../src/node/devnet/abi.js'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { quantity } from '../src/utils/hex.js'
import { compileSolidity } from './src/compileSolidity.js'
import { withDevnetAndEdgetrace } from './src/devnet.js'
import { eip712DomainType, eip2612PermitTypes } from './src/eip2612PermitTypes.js'
import { deploy, rpc, rpcResult, waitForReceipt } from './src/rpc.js'

// edgetrace_previewTypedData on the devnet: EIP-2612, DAI-style and Permit2 typed data previewed
// against contracts compiled here with solc (Permit2 a stand-in at its canonical address: its
// allowance(owner, token, spender) with a nonce, and nonceBitmap), then an EIP-2612 signature made by
// anvil's eth_signTypedData_v4 submitted and mined: the allowance proven after is what the preview said.

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;
contract PermitToken {
    string public constant name = "Permit Token";
    string public constant symbol = "PMT";
    uint8 public constant decimals = 18;
    bytes32 public immutable DOMAIN_SEPARATOR;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => uint256) public nonces;
    event Approval(address indexed owner, address indexed spender, uint256 value);
    constructor() {
        balanceOf[msg.sender] = 1e24;
        DOMAIN_SEPARATOR = keccak256(abi.encode(
            keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
            keccak256(bytes(name)), keccak256("1"), block.chainid, address(this)));
    }
    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }
    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        allowance[from][msg.sender] -= value;
        balanceOf[from] -= value;
        balanceOf[to] += value;
        return true;
    }
    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external {
        require(block.timestamp <= deadline, "expired");
        bytes32 digest = keccak256(abi.encodePacked("\\x19\\x01", DOMAIN_SEPARATOR, keccak256(abi.encode(
            keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)"),
            owner, spender, value, nonces[owner]++, deadline))));
        require(ecrecover(digest, v, r, s) == owner, "bad signature");
        allowance[owner][spender] = value;
        emit Approval(owner, spender, value);
    }
}
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
}
/** A stand-in at Permit2's address: allowance(owner, token, spender) with its nonce, and nonceBitmap. */
contract Permit2Standin {
    struct Allowed { uint160 amount; uint48 expiration; uint48 nonce; }
    mapping(address => mapping(address => mapping(address => Allowed))) public allowance;
    mapping(address => mapping(uint256 => uint256)) public nonceBitmap;
    function approve(address token, address spender, uint160 amount, uint48 expiration) external {
        Allowed storage a = allowance[msg.sender][token][spender];
        a.amount = amount;
        a.expiration = expiration;
        a.nonce++;
    }
    function useNonce(uint256 nonce) external { nonceBitmap[msg.sender][nonce >> 8] |= 1 << (nonce & 255); }
}`

const PERMIT2 = '0x000000000022d473030f116ddee9f6a43af78ba3'
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

const send = async (tx: Record<string, unknown>) => {
  const hash = await rpcResult(devnet.anvil.url, 'eth_sendTransaction', [{ ...GAS, ...tx }])
  const receipt = await waitForReceipt(devnet.anvil.url, hash)
  expect(receipt.status).toBe('0x1')
  return BigInt(receipt.blockNumber)
}

beforeAll(async () => {
  ;({ devnet, edge, stop } = await withDevnetAndEdgetrace())
  ;[alice, bob, carol] = devnet.accounts.map((a) => a.toLowerCase()) as [`0x${string}`, `0x${string}`, `0x${string}`]
  const compiled = compileSolidity('Permits.sol', SOURCE)
  const lower = (a: string) => a.toLowerCase() as `0x${string}`
  pmt = lower(await deploy(devnet.anvil.url, compiled.PermitToken!.creation))
  dai = lower(await deploy(devnet.anvil.url, compiled.DaiLike!.creation))
  await rpcResult(devnet.anvil.url, 'anvil_setCode', [PERMIT2, compiled.Permit2Standin!.runtime])
  // anvil_setCode changes state without a block: a block after it commits to it.
  await rpcResult(devnet.anvil.url, 'evm_mine')
}, 60_000)
afterAll(() => stop())

const permitData = (message: Record<string, unknown>) => ({
  types: eip2612PermitTypes(),
  primaryType: 'Permit',
  domain: { name: 'Permit Token', version: '1', chainId: 31337, verifyingContract: pmt },
  message,
})
const PERMIT2_DOMAIN = {
  name: 'Permit2',
  chainId: 31337,
  verifyingContract: '0x000000000022D473030F116dDEE9F6A43aF78BA3',
}
const PMT_INFO = () => ({ address: pmt, standard: 'erc20', symbol: 'PMT', name: 'Permit Token', decimals: 18 })

async function preview(account: string, typed: unknown, block: unknown = 'latest') {
  const res = await rpc(edge.url, 'edgetrace_previewTypedData', [account, typed, block])
  expect(res.error, JSON.stringify(res.error)).toBeUndefined()
  return res.result
}

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

    const signature: string = await rpcResult(devnet.anvil.url, 'eth_signTypedData_v4', [alice, JSON.stringify(typed)])
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

  it("Permit2 PermitSingle and PermitBatch: Permit2's allowance(owner, token, spender) in force and its nonce", async () => {
    await send({
      from: alice,
      to: PERMIT2,
      data: encodeCall('approve(address,address,uint160,uint48)', [pmt, bob, 7n, 1000n]),
    })
    const details = [
      { name: 'token', type: 'address' },
      { name: 'amount', type: 'uint160' },
      { name: 'expiration', type: 'uint48' },
      { name: 'nonce', type: 'uint48' },
    ]
    const single = {
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        PermitDetails: details,
        PermitSingle: [
          { name: 'details', type: 'PermitDetails' },
          { name: 'spender', type: 'address' },
          { name: 'sigDeadline', type: 'uint256' },
        ],
      },
      primaryType: 'PermitSingle',
      domain: PERMIT2_DOMAIN,
      message: {
        details: {
          token: pmt,
          amount: '0xffffffffffffffffffffffffffffffffffffffff',
          expiration: '2000000000',
          nonce: '1',
        },
        spender: bob,
        sigDeadline: FAR.toString(),
      },
    }
    const p = await preview(alice, single)
    expect(p).toMatchObject({
      recognized: true,
      kind: 'permit2',
      owner: alice,
      spender: bob,
      usable: true,
      problems: [],
    })
    expect(p.grants).toEqual([
      {
        token: PMT_INFO(),
        amount: quantity(2n ** 160n - 1n),
        expiration: quantity(2_000_000_000n),
        current: { amount: '0x7', expiration: quantity(1000n), nonce: '0x1' },
        nonce: { signed: '0x1', current: '0x1', valid: true },
        // carol took 25 PMT in the first test.
        balance: quantity(10n ** 24n - 25n * ETHER),
        atRisk: quantity(10n ** 24n - 25n * ETHER),
        worstCase: null,
      },
    ])
    expect(p.signals).toEqual([
      {
        kind: 'unlimitedApproval',
        severity: 'warning',
        token: pmt,
        standard: 'permit2',
        spender: bob,
        amount: quantity(2n ** 160n - 1n),
        expiration: quantity(2_000_000_000n),
      },
      { kind: 'spenderIsEoa', severity: 'warning', spender: bob, delegated: false },
    ])
    const { PermitSingle: _, ...types } = single.types
    const batch = {
      ...single,
      types: {
        ...types,
        PermitBatch: [
          { name: 'details', type: 'PermitDetails[]' },
          { name: 'spender', type: 'address' },
          { name: 'sigDeadline', type: 'uint256' },
        ],
      },
      primaryType: 'PermitBatch',
      message: {
        details: [
          { token: pmt, amount: '5', expiration: '2000000000', nonce: '0' },
          { token: dai, amount: '6', expiration: '2000000000', nonce: '0' },
        ],
        spender: bob,
        sigDeadline: FAR.toString(),
      },
    }
    const b = await preview(alice, batch)
    expect(b.grants.map((g: any) => [g.token.symbol, g.amount, g.nonce])).toEqual([
      ['PMT', '0x5', { signed: '0x0', current: '0x1', valid: false }],
      ['DAI', '0x6', { signed: '0x0', current: '0x0', valid: true }],
    ])
    expect(b.problems).toEqual(['grants[0]: nonce 0 is not the current nonce 1: the signature cannot be used'])
  })

  it('Permit2 PermitTransferFrom: the ERC-20 allowance to Permit2 in force, an unordered nonce used or not (nonceBitmap)', async () => {
    await send({ from: alice, to: pmt, data: encodeCall('approve(address,uint256)', [PERMIT2, MAX]) })
    await send({ from: alice, to: PERMIT2, data: encodeCall('useNonce(uint256)', [300n]) })
    const typed = (nonce: bigint) => ({
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        TokenPermissions: [
          { name: 'token', type: 'address' },
          { name: 'amount', type: 'uint256' },
        ],
        PermitTransferFrom: [
          { name: 'permitted', type: 'TokenPermissions' },
          { name: 'spender', type: 'address' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
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
    expect(fresh.grants[0]).toMatchObject({
      amount: quantity(1000n),
      current: { amount: quantity(MAX), expiration: null, nonce: null },
      nonce: { signed: quantity(301n), current: null, valid: true },
      atRisk: quantity(1000n),
    })
    expect(fresh.signals).toEqual([{ kind: 'spenderIsEoa', severity: 'warning', spender: carol, delegated: false }])
    // A contract spender and a limited amount: no signal.
    const toContract = await preview(alice, { ...typed(301n), message: { ...typed(301n).message, spender: pmt } })
    expect(toContract.signals).toEqual([])
    const used = await preview(alice, typed(300n))
    expect(used.grants[0].nonce.valid).toBe(false)
    expect(used.problems).toEqual(['grants[0]: nonce 300 is already used on Permit2: the signature cannot be used'])
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
