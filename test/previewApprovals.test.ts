import { encodeFunctionData, parseAbi } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeCall } from '../src/node/devnet/abi.js'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import type { RunningEdgetrace } from '../src/node/startEdgetrace.js'
import { quantity } from '../src/utils/hex.js'
import { compileSolidity } from './src/compileSolidity.js'
import { eip2612PermitTypes } from './src/eip2612PermitTypes.js'
import { PERMIT_TOKEN_CONTRACT } from './src/permitTokenContract.js'
import { PERMIT2_ABI, permit2Types } from './src/permit2TypedData.js'
import { mineTogether } from './src/mineTogether.js'
import { PERMIT2_ADDRESS, PERMIT2_DOMAIN, withPermit2Devnet } from './src/permit2Devnet.js'
import { deploy, rpc, rpcResult, sendMined } from './src/rpc.js'

// edgetrace_previewTransactions' NFTs and approvals on the devnet, measured against mined truth: each
// previewed sequence is then mined on anvil in the next block, and every `post` (an ERC-721 held or
// not, an ERC-1155 balance, an allowance, a token's approved address, an operator flag) equals what
// edgetrace proves at the mined block by the same verified call, every `pre` what it proves at the
// block before. The contracts are compiled here with solc; Permit2 is its real (mainnet) code put at its
// canonical address (test/fixtures/permit2).

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;
contract Nft {
    string public constant name = "Edge Kittens";
    string public constant symbol = "KIT";
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);
    mapping(uint256 => address) owners;
    mapping(uint256 => address) approved;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => bool)) public isApprovedForAll;
    function supportsInterface(bytes4 id) external pure returns (bool) { return id == 0x80ac58cd || id == 0x01ffc9a7; }
    function ownerOf(uint256 id) public view returns (address owner) {
        owner = owners[id];
        require(owner != address(0), "no owner");
    }
    function getApproved(uint256 id) external view returns (address) {
        ownerOf(id);
        return approved[id];
    }
    function mint(address to, uint256 id) external {
        require(owners[id] == address(0), "minted");
        owners[id] = to;
        balanceOf[to]++;
        emit Transfer(address(0), to, id);
    }
    function approve(address to, uint256 id) external {
        address owner = ownerOf(id);
        require(msg.sender == owner || isApprovedForAll[owner][msg.sender], "not allowed");
        approved[id] = to;
        emit Approval(owner, to, id);
    }
    function setApprovalForAll(address operator, bool ok) external {
        isApprovedForAll[msg.sender][operator] = ok;
        emit ApprovalForAll(msg.sender, operator, ok);
    }
    function transferFrom(address from, address to, uint256 id) external {
        require(ownerOf(id) == from, "not the owner");
        require(msg.sender == from || approved[id] == msg.sender || isApprovedForAll[from][msg.sender], "not allowed");
        delete approved[id];
        owners[id] = to;
        balanceOf[from]--;
        balanceOf[to]++;
        emit Transfer(from, to, id);
    }
}
contract Multi {
    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);
    mapping(uint256 => mapping(address => uint256)) balances;
    mapping(address => mapping(address => bool)) public isApprovedForAll;
    function supportsInterface(bytes4 id) external pure returns (bool) { return id == 0xd9b67a26 || id == 0x01ffc9a7; }
    function balanceOf(address owner, uint256 id) external view returns (uint256) { return balances[id][owner]; }
    function mint(address to, uint256 id, uint256 value) external {
        balances[id][to] += value;
        emit TransferSingle(msg.sender, address(0), to, id, value);
    }
    function setApprovalForAll(address operator, bool ok) external {
        isApprovedForAll[msg.sender][operator] = ok;
        emit ApprovalForAll(msg.sender, operator, ok);
    }
    function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes calldata) external {
        require(msg.sender == from || isApprovedForAll[from][msg.sender], "not allowed");
        balances[id][from] -= value;
        balances[id][to] += value;
        emit TransferSingle(msg.sender, from, to, id, value);
    }
    function safeBatchTransferFrom(address from, address to, uint256[] calldata ids, uint256[] calldata values, bytes calldata) external {
        require(msg.sender == from || isApprovedForAll[from][msg.sender], "not allowed");
        for (uint256 i = 0; i < ids.length; i++) {
            balances[ids[i]][from] -= values[i];
            balances[ids[i]][to] += values[i];
        }
        emit TransferBatch(msg.sender, from, to, ids, values);
    }
}
${PERMIT_TOKEN_CONTRACT}`

const PERMIT2 = PERMIT2_ADDRESS.toLowerCase()
const ETHER = 10n ** 18n
const FEES = { maxFeePerGas: quantity(20_000_000_000n), maxPriorityFeePerGas: quantity(1_000_000_000n) }
const GAS = { gas: quantity(300_000) }
const ZERO = '0x0000000000000000000000000000000000000000'

let devnet: Devnet
let edge: RunningEdgetrace
let stop: () => Promise<void>
let alice: `0x${string}`
let bob: `0x${string}`
let carol: `0x${string}`
let nft: `0x${string}`
let multi: `0x${string}`
let pmt: `0x${string}`

const send = async (tx: Record<string, unknown>) => {
  await sendMined(devnet.anvil.url, { ...GAS, ...tx })
}

beforeAll(async () => {
  ;({ devnet, edge, stop } = await withPermit2Devnet())
  ;[alice, bob, carol] = devnet.accounts.map((a) => a.toLowerCase()) as [`0x${string}`, `0x${string}`, `0x${string}`]
  const compiled = compileSolidity('Nfts.sol', SOURCE)
  const lower = (a: string) => a.toLowerCase() as `0x${string}`
  nft = lower(await deploy(devnet.anvil.url, compiled.Nft!.creation))
  multi = lower(await deploy(devnet.anvil.url, compiled.Multi!.creation))
  pmt = lower(await deploy(devnet.anvil.url, compiled.PermitToken!.creation))
  await send({ from: alice, to: nft, data: encodeCall('mint(address,uint256)', [alice, 1]) })
  await send({ from: alice, to: multi, data: encodeCall('mint(address,uint256,uint256)', [alice, 7, 10]) })
  await send({ from: alice, to: multi, data: encodeCall('mint(address,uint256,uint256)', [alice, 8, 6]) })
}, 60_000)
afterAll(() => stop())

/** A preview at the latest block, then the same calls mined together in the next block. */
async function previewThenMine(calls: Record<string, unknown>[], options?: unknown) {
  const base = BigInt(await rpcResult(devnet.anvil.url, 'eth_blockNumber'))
  const res = await rpc(edge.url, 'edgetrace_previewTransactions', [
    calls,
    quantity(base),
    ...(options ? [options] : []),
  ])
  expect(res.error, JSON.stringify(res.error)).toBeUndefined()
  const from = calls[0]!.from
  const nonce = BigInt(await rpcResult(devnet.anvil.url, 'eth_getTransactionCount', [from, 'latest']))
  const receipts = await mineTogether(
    devnet.anvil.url,
    calls.map((c, i) => ({ ...GAS, ...FEES, ...c, nonce: quantity(nonce + BigInt(i)) })),
  )
  for (const r of receipts) {
    expect(r.status).toBe('0x1')
    expect(BigInt(r.blockNumber)).toBe(base + 1n)
  }
  return { preview: res.result, mined: base + 1n }
}

/** A verified call's answer at a block (edgetrace's eth_call); its first word. */
const callWord = async (to: string, data: string, block: bigint) => {
  const res = await rpc(edge.url, 'eth_call', [{ to, data }, quantity(block)])
  return res.error ? null : BigInt(res.result.slice(0, 66))
}
const word = (v: bigint) => v.toString(16).padStart(64, '0')
const arg = (a: string) => a.slice(2).padStart(64, '0')

/** What an asset change's holding is, proven at a block: ERC-721 1/0 by ownerOf, ERC-1155 balanceOf(account, id). */
async function heldAt(change: any, account: string, block: bigint): Promise<bigint> {
  const id = BigInt(change.tokenId)
  if (change.token.standard === 'erc721') {
    const owner = await callWord(change.token.address, encodeCall('ownerOf(uint256)', [id]), block)
    return owner === BigInt(account) ? 1n : 0n
  }
  return (await callWord(
    change.token.address,
    encodeCall('balanceOf(address,uint256)', [account as `0x${string}`, id]),
    block,
  ))!
}

/** Every NFT change's pre and post are what is proven at the block before the mined one and at it. */
async function expectNftsMined(preview: any, account: string, mined: bigint) {
  for (const c of preview.assetChanges.filter((a: any) => a.tokenId !== undefined)) {
    expect(BigInt(c.value.post), JSON.stringify(c)).toBe(await heldAt(c, account, mined))
    expect(BigInt(c.value.pre), JSON.stringify(c)).toBe(await heldAt(c, account, mined - 1n))
  }
}

/** What an approval is, proven at a block, in the answer's form. */
async function approvalAt(a: any, owner: string, block: bigint): Promise<unknown> {
  const token = a.token.address
  if (a.kind === 'allowance') {
    return quantity((await callWord(token, `0xdd62ed3e${arg(owner)}${arg(a.spender)}`, block))!)
  }
  if (a.kind === 'approve') {
    const approved = await callWord(token, encodeCall('getApproved(uint256)', [BigInt(a.tokenId)]), block)
    return `0x${(approved ?? 0n).toString(16).padStart(40, '0')}`
  }
  if (a.kind === 'approvalForAll')
    return (await callWord(token, `0xe985e9c5${arg(owner)}${arg(a.spender)}`, block)) === 1n
  return quantity((await callWord(PERMIT2, `0x927da105${arg(owner)}${arg(token)}${arg(a.spender)}`, block))!)
}

/** Permit2's allowance(owner, token, spender) proven at a block: amount, expiration, nonce as quantities. */
async function permit2At(a: any, owner: string, block: bigint) {
  const res = await rpc(edge.url, 'eth_call', [
    { to: PERMIT2, data: `0x927da105${arg(owner)}${arg(a.token.address)}${arg(a.spender)}` },
    quantity(block),
  ])
  const [amount, expiration, nonce] = [0, 1, 2].map((i) =>
    quantity(BigInt(`0x${res.result.slice(2 + i * 64, 66 + i * 64)}`)),
  )
  return { amount, expiration, nonce }
}

async function expectApprovalsMined(preview: any, owner: string, mined: bigint) {
  for (const a of preview.approvals) {
    expect(a.post, JSON.stringify(a)).toEqual(await approvalAt(a, owner, mined))
    expect(a.pre, JSON.stringify(a)).toEqual(await approvalAt(a, owner, mined - 1n))
    if (a.kind !== 'permit2') continue
    expect({ amount: a.post, expiration: a.expiration.post, nonce: a.nonce.post }).toEqual(
      await permit2At(a, owner, mined),
    )
    expect({ amount: a.pre, expiration: a.expiration.pre, nonce: a.nonce.pre }).toEqual(
      await permit2At(a, owner, mined - 1n),
    )
  }
}

describe('edgetrace_previewTransactions: NFTs against mined truth', () => {
  it('ERC-721: a token minted and one transferred away, 0/1 by ownerOf before and after, tokenId set', async () => {
    const calls = [
      { from: alice, to: nft, data: encodeCall('mint(address,uint256)', [alice, 2]) },
      { from: alice, to: nft, data: encodeCall('transferFrom(address,address,uint256)', [alice, bob, 1]) },
    ]
    const { preview, mined } = await previewThenMine(calls)
    const nfts = preview.assetChanges.slice(1)
    expect(nfts).toEqual([
      {
        token: { address: nft, standard: 'erc721', symbol: 'KIT', name: 'Edge Kittens', decimals: null },
        tokenId: '0x2',
        value: { pre: '0x0', post: '0x1', diff: '0x1' },
      },
      {
        token: { address: nft, standard: 'erc721', symbol: 'KIT', name: 'Edge Kittens', decimals: null },
        tokenId: '0x1',
        value: { pre: '0x1', post: '0x0', diff: '-0x1' },
      },
    ])
    await expectNftsMined(preview, alice, mined)
  })

  it("ERC-721 from the recipient's side (options.account): bob gains the token", async () => {
    const calls = [{ from: bob, to: nft, data: encodeCall('transferFrom(address,address,uint256)', [bob, carol, 1]) }]
    const res = await rpcResult(edge.url, 'edgetrace_previewTransactions', [calls, 'latest', { account: carol }])
    expect(res.assetChanges[1]).toMatchObject({ tokenId: '0x1', value: { pre: '0x0', post: '0x1', diff: '0x1' } })
    // A transfer between two others is not alice's: nothing of hers listed.
    const other = await rpcResult(edge.url, 'edgetrace_previewTransactions', [calls, 'latest', { account: alice }])
    expect(other.assetChanges).toHaveLength(1)
  })

  it('ERC-1155: a TransferSingle and a TransferBatch, one entry per id by balanceOf(account, id)', async () => {
    const calls = [
      {
        from: alice,
        to: multi,
        data:
          encodeCall('safeTransferFrom(address,address,uint256,uint256,bytes)', [alice, bob, 7, 3, 0xa0]) + word(0n),
      },
      {
        from: alice,
        to: multi,
        data: encodeFunctionData({
          abi: parseAbi(['function safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)']),
          args: [alice, bob, [7n, 8n], [2n, 4n], '0x'],
        }),
      },
    ]
    const { preview, mined } = await previewThenMine(calls)
    const token = { address: multi, standard: 'erc1155', symbol: null, name: null, decimals: null }
    expect(preview.assetChanges.slice(1)).toEqual([
      { token, tokenId: '0x7', value: { pre: '0xa', post: '0x5', diff: '-0x5' } },
      { token, tokenId: '0x8', value: { pre: '0x6', post: '0x2', diff: '-0x4' } },
    ])
    await expectNftsMined(preview, alice, mined)
  })
})

describe('edgetrace_previewTransactions: approvals against mined truth', () => {
  it('ERC-20 approve and an EIP-2612 permit (submitted by another account): allowance pre → post', async () => {
    const value = 25n * ETHER
    const deadline = 2n ** 40n
    const typed = {
      types: eip2612PermitTypes(),
      primaryType: 'Permit',
      domain: { name: 'Permit Token', version: '1', chainId: 31337, verifyingContract: pmt },
      message: { owner: alice, spender: carol, value: value.toString(), nonce: '0', deadline: deadline.toString() },
    }
    const signature: string = await rpcResult(devnet.anvil.url, 'eth_signTypedData_v4', [alice, JSON.stringify(typed)])
    const r = `0x${signature.slice(2, 66)}` as `0x${string}`
    const s = `0x${signature.slice(66, 130)}` as `0x${string}`
    const v = Number.parseInt(signature.slice(130, 132), 16)
    // bob submits alice's permit and approves for himself: alice's approvals are asked for.
    const calls = [
      {
        from: bob,
        to: pmt,
        data: encodeCall('permit(address,address,uint256,uint256,uint8,bytes32,bytes32)', [
          alice,
          carol,
          value,
          deadline,
          v,
          r,
          s,
        ]),
      },
      { from: bob, to: pmt, data: encodeCall('approve(address,uint256)', [alice, 9n]) },
    ]
    const { preview, mined } = await previewThenMine(calls, { account: alice })
    expect(preview.calls.map((c: any) => c.status)).toEqual(['success', 'success'])
    expect(preview.approvals).toEqual([
      {
        token: { address: pmt, standard: 'erc20', symbol: 'PMT', name: 'Permit Token', decimals: 18 },
        standard: 'erc20',
        spender: carol,
        kind: 'allowance',
        pre: '0x0',
        post: quantity(value),
      },
    ])
    await expectApprovalsMined(preview, alice, mined)

    const own = await previewThenMine([
      { from: alice, to: pmt, data: encodeCall('approve(address,uint256)', [bob, 2n ** 256n - 1n]) },
      { from: alice, to: pmt, data: encodeCall('approve(address,uint256)', [carol, 1n]) },
    ])
    expect(own.preview.approvals.map((a: any) => [a.kind, a.spender, a.pre, a.post])).toEqual([
      ['allowance', bob, '0x0', quantity(2n ** 256n - 1n)],
      ['allowance', carol, quantity(value), '0x1'],
    ])
    await expectApprovalsMined(own.preview, alice, own.mined)
  })

  it('ERC-721 approve (getApproved pre → post), setApprovalForAll on an ERC-721 and an ERC-1155 (each its standard)', async () => {
    await send({ from: alice, to: nft, data: encodeCall('mint(address,uint256)', [alice, 5]) })
    const calls = [
      { from: alice, to: nft, data: encodeCall('approve(address,uint256)', [carol, 5]) },
      { from: alice, to: nft, data: encodeCall('setApprovalForAll(address,bool)', [bob, true]) },
      { from: alice, to: multi, data: encodeCall('setApprovalForAll(address,bool)', [carol, true]) },
    ]
    const { preview, mined } = await previewThenMine(calls)
    const kit = { address: nft, standard: 'erc721', symbol: 'KIT', name: 'Edge Kittens', decimals: null }
    expect(preview.approvals).toEqual([
      { token: kit, standard: 'erc721', spender: carol, kind: 'approve', tokenId: '0x5', pre: ZERO, post: carol },
      { token: kit, standard: 'erc721', spender: bob, kind: 'approvalForAll', pre: false, post: true },
      {
        token: { address: multi, standard: 'erc1155', symbol: null, name: null, decimals: null },
        standard: 'erc1155',
        spender: carol,
        kind: 'approvalForAll',
        pre: false,
        post: true,
      },
    ])
    await expectApprovalsMined(preview, alice, mined)

    // Revoked: true → false; a transfer clears the token's approval without an Approval event (not listed).
    const revoke = await previewThenMine([
      { from: alice, to: multi, data: encodeCall('setApprovalForAll(address,bool)', [carol, false]) },
    ])
    expect(revoke.preview.approvals.map((a: any) => [a.kind, a.pre, a.post])).toEqual([['approvalForAll', true, false]])
    await expectApprovalsMined(revoke.preview, alice, revoke.mined)
  })

  it("Permit2 (its real code): approve, a PermitSingle submitted by another account, invalidateNonces and lockdown — allowance(owner, token, spender)'s amount, expiration and nonce pre → post", async () => {
    const pmtInfo = { address: pmt, standard: 'erc20', symbol: 'PMT', name: 'Permit Token', decimals: 18 }
    const approve = await previewThenMine([
      {
        from: alice,
        to: PERMIT2,
        data: encodeCall('approve(address,address,uint160,uint48)', [pmt, bob, 1000n, 2_000_000_000n]),
      },
    ])
    expect(approve.preview.approvals).toEqual([
      {
        token: pmtInfo,
        standard: 'permit2',
        spender: bob,
        kind: 'permit2',
        pre: '0x0',
        post: quantity(1000n),
        expiration: { pre: '0x0', post: quantity(2_000_000_000n) },
        // approve leaves the nonce: only a permit uses one.
        nonce: { pre: '0x0', post: '0x0' },
      },
    ])
    await expectApprovalsMined(approve.preview, alice, approve.mined)

    // alice signs a PermitSingle; bob submits it: Permit2 logs Permit(alice, pmt, bob, …), the nonce is used.
    const permitSingle = {
      details: { token: pmt, amount: 500n, expiration: 2_100_000_000, nonce: 0 },
      spender: bob,
      sigDeadline: 2n ** 40n,
    }
    const typed = {
      types: permit2Types('PermitSingle'),
      primaryType: 'PermitSingle',
      domain: PERMIT2_DOMAIN,
      message: {
        details: { ...permitSingle.details, amount: '500', expiration: '2100000000', nonce: '0' },
        spender: bob,
        sigDeadline: permitSingle.sigDeadline.toString(),
      },
    }
    const signature = await rpcResult(devnet.anvil.url, 'eth_signTypedData_v4', [alice, JSON.stringify(typed)])
    const permit = await previewThenMine(
      [
        {
          from: bob,
          to: PERMIT2,
          data: encodeFunctionData({
            abi: PERMIT2_ABI.permitSingle,
            functionName: 'permit',
            args: [alice, permitSingle, signature],
          }),
        },
      ],
      { account: alice },
    )
    expect(permit.preview.calls[0].status).toBe('success')
    expect(permit.preview.approvals).toEqual([
      {
        token: pmtInfo,
        standard: 'permit2',
        spender: bob,
        kind: 'permit2',
        pre: quantity(1000n),
        post: quantity(500n),
        expiration: { pre: quantity(2_000_000_000n), post: quantity(2_100_000_000n) },
        nonce: { pre: '0x0', post: '0x1' },
      },
    ])
    await expectApprovalsMined(permit.preview, alice, permit.mined)

    // NonceInvalidation (owner, token and spender indexed): the nonce moves, signed permits die.
    const invalidate = await previewThenMine([
      { from: alice, to: PERMIT2, data: encodeCall('invalidateNonces(address,address,uint48)', [pmt, bob, 5n]) },
    ])
    expect(invalidate.preview.approvals.map((a: any) => [a.kind, a.spender, a.pre, a.post, a.nonce])).toEqual([
      ['permit2', bob, quantity(500n), quantity(500n), { pre: '0x1', post: '0x5' }],
    ])
    await expectApprovalsMined(invalidate.preview, alice, invalidate.mined)

    // Lockdown (only the owner indexed; token and spender in its data): the amount to 0.
    const lockdown = await previewThenMine([
      {
        from: alice,
        to: PERMIT2,
        data: encodeFunctionData({
          abi: PERMIT2_ABI.lockdown,
          functionName: 'lockdown',
          args: [[{ token: pmt, spender: bob }]],
        }),
      },
    ])
    expect(lockdown.preview.approvals).toEqual([
      {
        token: pmtInfo,
        standard: 'permit2',
        spender: bob,
        kind: 'permit2',
        pre: quantity(500n),
        post: '0x0',
        expiration: { pre: quantity(2_100_000_000n), post: quantity(2_100_000_000n) },
        nonce: { pre: '0x5', post: '0x5' },
      },
    ])
    await expectApprovalsMined(lockdown.preview, alice, lockdown.mined)
  })

  it('no approval event of the account: none listed (a transfer, or another owner approving)', async () => {
    const res = await rpcResult(edge.url, 'edgetrace_previewTransactions', [
      [
        { from: bob, to: pmt, data: encodeCall('approve(address,uint256)', [alice, 5n]) },
        { from: bob, to: nft, data: encodeCall('setApprovalForAll(address,bool)', [alice, true]) },
      ],
      'latest',
      { account: alice },
    ])
    expect(res.calls.map((c: any) => c.status)).toEqual(['success', 'success'])
    expect(res.approvals).toEqual([])
  })
})
