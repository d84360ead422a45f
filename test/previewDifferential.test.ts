import { type Abi, createPublicClient, custom, encodeFunctionData, maxUint256, parseAbi } from 'viem'
import { simulateCalls } from 'viem/actions'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import { quantity } from '../src/utils/hex.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { createProxy } from './src/createProxy.js'
import { withDevnetAndEdgetrace } from './src/devnet.js'
import { mineTogether } from './src/mineTogether.js'
import { type PreviewScenario, deployPreviewScenario } from './src/previewScenarioContracts.js'
import { rpc, rpcResult } from './src/rpc.js'

// edgetrace_previewTransactions against viem's simulateCalls (traceAssetChanges) and against mined truth,
// one scenario per `it`, on one devnet with the scenario contracts of test/src/previewScenarioContracts.ts.
//
// (a) viem: simulateCalls(client, { account, calls, traceAssetChanges: true, blockNumber }) against ANVIL
//     (its eth_simulateV1) and edgetrace_previewTransactions against edgetrace, on the same block. What
//     each counts:
//     - ether: viem's pre is the account's balance on the block, its post the balance after the calls
//       in a simulated block run without fees (viem's calls carry no gas price; eth_simulateV1 without
//       validation charges none), so its diff is the ether the calls' values moved. The preview runs the
//       calls without fees too: its `value` is the same movement, and the fees at the next block's base
//       fee are said apart (`gasPaid`). Compared: pre, post, diff, exactly.
//     - ERC-20: viem reads `balanceOf(account)` of every contract a Transfer log from or to the account
//       names, and of every call's `to`, before and after; the preview reads it of every contract a
//       Transfer (or WETH Deposit/Withdrawal) names and of every call's `to` (that one kept only where
//       it moved). Compared: every preview ERC-20 against viem's entry of the same address (pre, post,
//       diff); a viem entry the preview does not have must not have moved.
//     - ERC-721: viem reads `balanceOf(account)` of the collection, a count with no token ids (and
//       calls it a token with `decimals` 1 when tokenURI answers); the preview says each id (ownerOf as
//       0/1). Compared: viem's count diff equals the sum of the preview's per-id diffs; the ids are
//       checked against the mined owners only.
//     - ERC-1155: viem is silent (its `balanceOf(address)` probe reverts on an ERC-1155); checked
//       against mined balances only.
//     - A WETH Deposit through a contract (a smart account's execute): no Transfer names the account
//       and the WETH contract is not a call's `to`, so viem is silent; checked against mined balances.
// (b) mined truth: the calls are then sent to anvil (impersonating the smart account where it is the
//     sender) and mined together in the next block; every `post` equals what edgetrace proves at the
//     mined block (eth_call balanceOf / ownerOf / balanceOf(account, id), eth_getBalance), ether as
//     post − the fees the mined receipts paid; every `pre` equals the proven balance on the block
//     previewed; each call's status and gas used are the receipt's, and `gasPaid` the receipts' fees.

type Address = `0x${string}`
type Call = { to: Address; data?: `0x${string}`; value?: bigint }

const ETHER = 10n ** 18n
const ETH_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
const FEES = { maxFeePerGas: quantity(20_000_000_000n), maxPriorityFeePerGas: quantity(1_000_000_000n) }
const GAS = quantity(1_000_000)
const DEADLINE = 2n ** 40n

const ERC20 = parseAbi([
  'function transfer(address to, uint256 value) returns (bool)',
  'function transferFrom(address from, address to, uint256 value) returns (bool)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function balanceOf(address who) view returns (uint256)',
  'function mint(address to, uint256 value)',
  'function rebase(uint256 newPooled)',
  'function pooled() view returns (uint256)',
  'function deposit() payable',
  'function withdraw(uint256 wad)',
])
const NFT = parseAbi([
  'function mint(address to) returns (uint256)',
  'function nextId() view returns (uint256)',
  'function ownerOf(uint256 id) view returns (address)',
  'function transferFrom(address from, address to, uint256 id)',
  'function safeTransferFrom(address from, address to, uint256 id)',
])
const MULTI = parseAbi([
  'function mint(address to, uint256 id, uint256 value)',
  'function balanceOf(address who, uint256 id) view returns (uint256)',
  'function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)',
  'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] values, bytes data)',
])
const ROUTER = parseAbi([
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[])',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[])',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[])',
])
const AGGREGATOR = parseAbi([
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Call3Value { address target; bool allowFailure; uint256 value; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate3(Call3[] calls) payable returns (Result[])',
  'function aggregate3Value(Call3Value[] calls) payable returns (Result[])',
])
const ACCOUNT = parseAbi(['function execute(address to, uint256 value, bytes data) payable returns (bytes)'])

const encode = (abi: Abi, functionName: string, args: readonly unknown[] = []) =>
  encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0])

let devnet: Devnet
let edge: RunningEdgetrace
let stop: () => Promise<void>
let s: PreviewScenario
let alice: Address
let bob: Address
let carol: Address
let client: ReturnType<typeof createPublicClient>
/** The ids Nft721 mints next (each scenario that mints takes one). */
let nextNftId = 1n

beforeAll(async () => {
  ;({ devnet, edge, stop } = await withDevnetAndEdgetrace())
  const accounts = devnet.accounts as Address[]
  ;[alice, bob, carol] = [accounts[1]!, accounts[2]!, accounts[3]!]
  s = await deployPreviewScenario(devnet.anvil.url, accounts[0]!, [alice, bob, carol])
  client = createPublicClient({ transport: custom({ request: anvilForViem(devnet.anvil.url) }, { retryCount: 0 }) })
  // Bob lets alice pull 100 TKA (the transferFrom scenario); the smart account is sent as itself when mined.
  await mineCalls(bob, [{ to: s.tokenA, data: encode(ERC20, 'approve', [alice, 100n * ETHER]) }])
  await rpcResult(devnet.anvil.url, 'anvil_impersonateAccount', [s.smartAccount])
}, 60_000)
afterAll(() => stop())

/** Where anvilForViem puts its balance reader: code `PUSH1 0 CALLDATALOAD BALANCE PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN`. */
const BALANCE_READER = '0x00000000000000000000000000000000000ba1a0'
const BALANCE_READER_CODE = '0x6000353160005260206000f3'

/**
 * viem's requests sent to anvil as they are, but for one shim: viem reads the account's ether after
 * the calls with a deployless call (a call with no `to`) in a simulated block, and anvil's
 * eth_simulateV1 refuses calls without `to` ("eip1559 transaction can't be built due to missing keys:
 * [\"to\"]"). That call is replaced by the same read — BALANCE of the account, in the same block,
 * after the calls — from a contract put there by a state override of that block.
 */
function anvilForViem(url: string) {
  return async ({ method, params }: { method: string; params?: unknown }) => {
    if (method === 'eth_simulateV1') {
      const [options] = params as [{ blockStateCalls: { calls: any[]; stateOverrides?: object }[] }]
      for (const block of options.blockStateCalls) {
        const deployless = block.calls.findIndex((c) => c.to === undefined)
        if (deployless < 0) continue
        const who = /f8b2cb4f000000000000000000000000([0-9a-f]{40})/.exec(block.calls[deployless].data)
        if (!who) throw new Error("anvilForViem: a call without to that is not viem's getBalance")
        block.calls[deployless] = { to: BALANCE_READER, data: `0x${who[1]!.padStart(64, '0')}` }
        block.stateOverrides = { ...block.stateOverrides, [BALANCE_READER]: { code: BALANCE_READER_CODE } }
      }
    }
    const res = await rpc(url, method, params as unknown[])
    if (res.error) throw Object.assign(new Error(res.error.message), res.error)
    return res.result
  }
}

const latest = async () => BigInt(await rpcResult(devnet.anvil.url, 'eth_blockNumber'))
const ethCall = async (to: Address, data: `0x${string}`, block: bigint) => {
  const res = await rpc(edge.url, 'eth_call', [{ to, data }, quantity(block)])
  return res.error ? null : (res.result as `0x${string}`)
}

/** Sends the calls from `from` (unlocked or impersonated) and mines them together in the next block; their receipts. */
async function mineCalls(from: Address, calls: Call[]) {
  const url = devnet.anvil.url
  const nonce = BigInt(await rpcResult(url, 'eth_getTransactionCount', [from, 'latest']))
  return mineTogether(
    url,
    calls.map((c, i) => {
      const tx = { from, to: c.to, data: c.data ?? '0x', value: quantity(c.value ?? 0n), gas: GAS, ...FEES }
      return { ...tx, nonce: quantity(nonce + BigInt(i)) }
    }),
  )
}

const signed = (v: string) => (v.startsWith('-') ? -BigInt(v.slice(1)) : BigInt(v))
type Change = { address: string; standard: string; tokenId?: bigint; pre: bigint; post: bigint; diff: bigint }

/** The preview's asset changes as numbers (a null value, a read that did not answer, fails the test). */
function previewChanges(preview: any): Change[] {
  return preview.assetChanges.map((c: any) => {
    expect(c.value, `${c.token.address} has no value`).not.toBeNull()
    return {
      address: c.token.address,
      standard: c.token.standard,
      ...(c.tokenId === undefined ? {} : { tokenId: BigInt(c.tokenId) }),
      pre: BigInt(c.value.pre),
      post: BigInt(c.value.post),
      diff: signed(c.value.diff),
    }
  })
}

type Expect = {
  /** ERC-20s the preview has and viem does not (it is silent on them): checked against the mined balances only. */
  viemSilent?: Address[]
}

/**
 * Compares like with like: ether and every ERC-20 exactly; an ERC-721 collection as viem's count
 * against the sum of the preview's ids; an ERC-1155 must be absent from viem (it is silent on them).
 * A viem entry the preview lacks must not have moved.
 */
function compareWithViem(
  changes: Change[],
  viem: readonly { token: { address: string }; value: any }[],
  expected: Expect,
) {
  const byAddress = new Map(viem.map((v) => [v.token.address.toLowerCase(), v.value]))
  const covered = new Set<string>()
  const [native] = changes
  expect(native!.standard).toBe('native')
  expect(byAddress.get(ETH_ADDRESS), 'ether (both without fees)').toEqual({
    pre: native!.pre,
    post: native!.post,
    diff: native!.diff,
  })
  covered.add(ETH_ADDRESS)
  for (const c of changes.slice(1)) {
    covered.add(c.address)
    const v = byAddress.get(c.address)
    if (c.standard === 'erc20') {
      if (expected.viemSilent?.includes(c.address as Address)) {
        expect(v, `viem is silent on ${c.address}`).toBeUndefined()
      } else {
        expect(v, `erc20 ${c.address}`).toEqual({ pre: c.pre, post: c.post, diff: c.diff })
      }
    } else if (c.standard === 'erc721') {
      // viem: the collection's balanceOf(account), a count; the preview: each id held or not.
      const sum = changes.filter((o) => o.address === c.address).reduce((t, o) => t + o.diff, 0n)
      expect(v?.diff, `erc721 ${c.address}: viem's count`).toBe(sum)
    } else {
      expect(c.standard).toBe('erc1155')
      expect(v, `viem is silent on the ERC-1155 ${c.address}`).toBeUndefined()
    }
  }
  for (const [address, v] of byAddress) {
    if (!covered.has(address)) expect(v.diff, `viem's ${address}, not in the preview, moved`).toBe(0n)
  }
}

/** Every post is what edgetrace proves at the mined block, every pre what it proves on the block previewed. */
async function expectMinedTruth(changes: Change[], account: Address, base: bigint, mined: bigint, fees: bigint) {
  const held = async (c: Change, block: bigint) => {
    if (c.standard === 'native') {
      return BigInt(await rpcResult(edge.url, 'eth_getBalance', [account, quantity(block)]))
    }
    if (c.standard === 'erc20') {
      return BigInt((await ethCall(c.address as Address, encode(ERC20, 'balanceOf', [account]), block)) ?? '0x0')
    }
    if (c.standard === 'erc721') {
      // ownerOf reverts for an id no one holds (not minted yet): not the account's.
      const owner = await ethCall(c.address as Address, encode(NFT, 'ownerOf', [c.tokenId]), block)
      return owner !== null && BigInt(owner) === BigInt(account) ? 1n : 0n
    }
    return BigInt((await ethCall(c.address as Address, encode(MULTI, 'balanceOf', [account, c.tokenId]), block))!)
  }
  for (const c of changes) {
    const what = `${c.standard} ${c.address}${c.tokenId === undefined ? '' : ` #${c.tokenId}`}`
    expect(c.pre, `${what}: pre`).toBe(await held(c, base))
    expect(c.diff, `${what}: diff`).toBe(c.post - c.pre)
    // Ether: the preview's post is before fees; the mined balance is after the receipts' fees.
    expect(c.post - (c.standard === 'native' ? fees : 0n), `${what}: post`).toBe(await held(c, mined))
  }
}

type Run = { preview: any; changes: Change[]; viem: any; receipts: any[] }

/**
 * One scenario: viem against anvil and the preview against edgetrace on the latest block, compared;
 * then the calls mined in the next block, and the preview's pre and post checked against what is proven there.
 */
async function scenario(account: Address, calls: Call[], expected: Expect = {}): Promise<Run> {
  const base = await latest()
  const [viem, res] = await Promise.all([
    simulateCalls(client, {
      account,
      blockNumber: base,
      calls: calls.map((c) => ({ to: c.to, data: c.data, value: c.value })),
      traceAssetChanges: true,
    }),
    rpc(edge.url, 'edgetrace_previewTransactions', [
      calls.map((c) => ({
        from: account,
        to: c.to,
        ...(c.data ? { data: c.data } : {}),
        ...(c.value ? { value: quantity(c.value) } : {}),
        gas: GAS,
        ...FEES,
      })),
      quantity(base),
      { firstInteractionBlocks: 0, newContractDays: 0 },
    ]),
  ])
  expect(res.error, JSON.stringify(res.error)).toBeUndefined()
  const preview = res.result
  const changes = previewChanges(preview)
  // viem's results and the preview's calls agree on what succeeded.
  expect(preview.calls.map((c: any) => c.status)).toEqual(viem.results.map((r) => r.status))
  compareWithViem(changes, viem.assetChanges, expected)

  const receipts = await mineCalls(account, calls)
  const mined = BigInt(receipts[0].blockNumber)
  expect(mined).toBe(base + 1n)
  expect(preview.calls.map((c: any) => c.status)).toEqual(
    receipts.map((r) => (r.status === '0x1' ? 'success' : 'failure')),
  )
  expect(preview.calls.map((c: any) => c.gasUsed)).toEqual(receipts.map((r) => r.gasUsed))
  const fees = receipts.reduce((t, r) => t + BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice), 0n)
  expect(BigInt(preview.assetChanges[0].gasPaid)).toBe(fees)
  await expectMinedTruth(changes, account, base, mined, fees)
  return { preview, changes, viem, receipts }
}

const find = (run: Run, address: Address, tokenId?: bigint) =>
  run.changes.find((c) => c.address === address && c.tokenId === tokenId)
const diffOf = (run: Run, address: Address, tokenId?: bigint) => find(run, address, tokenId)?.diff
const transfer = (token: Address, to: Address, value: bigint): Call => ({
  to: token,
  data: encode(ERC20, 'transfer', [to, value]),
})
const approve = (token: Address, spender: Address, value: bigint): Call => ({
  to: token,
  data: encode(ERC20, 'approve', [spender, value]),
})
const swapTokens = (amountIn: bigint, path: Address[], to: Address, amountOutMin = 0n): Call => ({
  to: s.router,
  data: encode(ROUTER, 'swapExactTokensForTokens', [amountIn, amountOutMin, path, to, DEADLINE]),
})

describe('edgetrace_previewTransactions against viem simulateCalls and mined truth: ether', () => {
  it('an ether transfer to an EOA', async () => {
    const run = await scenario(alice, [{ to: bob, value: ETHER }])
    expect(run.changes).toHaveLength(1)
    expect(run.changes[0]!.diff).toBe(-ETHER)
  })

  it('ether to a contract that takes it (the smart account)', async () => {
    const run = await scenario(alice, [{ to: s.smartAccount, value: ETHER / 3n }])
    expect(run.changes[0]!.diff).toBe(-(ETHER / 3n))
  })

  it('ether, a token and a wrap in one sequence', async () => {
    const run = await scenario(alice, [
      { to: carol, value: ETHER / 10n },
      transfer(s.tokenB, carol, 3n * ETHER),
      { to: s.weth, data: encode(ERC20, 'deposit'), value: ETHER / 5n },
    ])
    expect(run.changes[0]!.diff).toBe(-(ETHER / 10n) - ETHER / 5n)
    expect(diffOf(run, s.tokenB)).toBe(-3n * ETHER)
    expect(diffOf(run, s.weth)).toBe(ETHER / 5n)
  })
})

describe('edgetrace_previewTransactions against viem simulateCalls and mined truth: ERC-20', () => {
  it('a transfer', async () => {
    const run = await scenario(alice, [transfer(s.tokenA, bob, 5n * ETHER)])
    expect(diffOf(run, s.tokenA)).toBe(-5n * ETHER)
  })

  it('a transfer to itself: named by the Transfer, nothing moved', async () => {
    const run = await scenario(alice, [transfer(s.tokenA, alice, 5n * ETHER)])
    expect(diffOf(run, s.tokenA)).toBe(0n)
  })

  it('a transfer to the token contract itself', async () => {
    const run = await scenario(alice, [transfer(s.tokenA, s.tokenA, ETHER)])
    expect(diffOf(run, s.tokenA)).toBe(-ETHER)
  })

  it('transferFrom of its own allowance (approve, then transferFrom)', async () => {
    const run = await scenario(alice, [
      approve(s.tokenB, alice, 2n * ETHER),
      { to: s.tokenB, data: encode(ERC20, 'transferFrom', [alice, carol, 2n * ETHER]) },
    ])
    expect(diffOf(run, s.tokenB)).toBe(-2n * ETHER)
  })

  it('transferFrom pulling what another account approved to it (the account gains)', async () => {
    const run = await scenario(alice, [{ to: s.tokenA, data: encode(ERC20, 'transferFrom', [bob, alice, 7n * ETHER]) }])
    expect(diffOf(run, s.tokenA)).toBe(7n * ETHER)
  })

  it('an approve alone: no asset moves (viem lists the token, unmoved; the preview lists none)', async () => {
    const run = await scenario(alice, [approve(s.tokenA, carol, ETHER)])
    expect(run.changes).toHaveLength(1)
    expect(run.viem.assetChanges.find((c: any) => c.token.address === s.tokenA).value.diff).toBe(0n)
  })

  it('a transfer that reverts (more than the balance): nothing moves but the gas', async () => {
    const run = await scenario(alice, [transfer(s.tokenB, bob, 10n ** 30n)])
    expect(run.preview.calls[0].status).toBe('failure')
    expect(run.preview.calls[0].revert).toMatchObject({ type: 'Error', message: 'balance' })
    expect(run.changes).toHaveLength(1)
    expect(run.changes[0]!.diff).toBe(0n)
  })
})

describe('edgetrace_previewTransactions against viem simulateCalls and mined truth: swaps through the router', () => {
  it('token → token: approve, then swapExactTokensForTokens', async () => {
    const run = await scenario(alice, [
      approve(s.tokenA, s.router, 10n * ETHER),
      swapTokens(10n * ETHER, [s.tokenA, s.tokenB], alice),
    ])
    expect(diffOf(run, s.tokenA)).toBe(-10n * ETHER)
    expect(diffOf(run, s.tokenB)! > 9n * ETHER).toBe(true)
  })

  it('token → token with an unlimited approval, the output to another account', async () => {
    const run = await scenario(alice, [
      approve(s.tokenB, s.router, maxUint256),
      swapTokens(4n * ETHER, [s.tokenB, s.tokenA], carol),
    ])
    expect(diffOf(run, s.tokenB)).toBe(-4n * ETHER)
    expect(find(run, s.tokenA)).toBeUndefined()
    expect(run.preview.signals.map((x: any) => x.kind)).toContain('unlimitedApproval')
  })

  it('ether → token: swapExactETHForTokens (the router wraps; no WETH of the account moves)', async () => {
    const run = await scenario(alice, [
      {
        to: s.router,
        value: ETHER,
        data: encode(ROUTER, 'swapExactETHForTokens', [0n, [s.weth, s.tokenA], alice, DEADLINE]),
      },
    ])
    expect(run.changes[0]!.diff).toBe(-ETHER)
    expect(diffOf(run, s.tokenA)! > 900n * ETHER).toBe(true)
    expect(find(run, s.weth)).toBeUndefined()
  })

  it('token → ether: approve, then swapExactTokensForETH (the router unwraps and sends ether)', async () => {
    const run = await scenario(alice, [
      approve(s.tokenA, s.router, 500n * ETHER),
      {
        to: s.router,
        data: encode(ROUTER, 'swapExactTokensForETH', [500n * ETHER, 0n, [s.tokenA, s.weth], alice, DEADLINE]),
      },
    ])
    expect(diffOf(run, s.tokenA)).toBe(-500n * ETHER)
    expect(run.changes[0]!.diff > 0n).toBe(true)
  })

  it('a swap whose minimum output is not met reverts after its approve stood', async () => {
    const run = await scenario(alice, [
      approve(s.tokenA, s.router, ETHER),
      swapTokens(ETHER, [s.tokenA, s.tokenB], alice, 10n ** 30n),
    ])
    expect(run.preview.calls.map((c: any) => c.status)).toEqual(['success', 'failure'])
    expect(run.preview.calls[1].revert).toMatchObject({ type: 'Error', message: 'insufficient output' })
    expect(run.changes).toHaveLength(1)
    expect(run.preview.approvals[0]).toMatchObject({ kind: 'allowance', spender: s.router, post: quantity(ETHER) })
  })
})

describe('edgetrace_previewTransactions against viem simulateCalls and mined truth: WETH', () => {
  it('wrap: deposit()', async () => {
    const run = await scenario(alice, [{ to: s.weth, data: encode(ERC20, 'deposit'), value: 2n * ETHER }])
    expect(run.changes[0]!.diff).toBe(-2n * ETHER)
    expect(diffOf(run, s.weth)).toBe(2n * ETHER)
  })

  it('wrap by sending plain ether (receive)', async () => {
    const run = await scenario(alice, [{ to: s.weth, value: ETHER }])
    expect(diffOf(run, s.weth)).toBe(ETHER)
  })

  it('unwrap: withdraw()', async () => {
    const run = await scenario(alice, [{ to: s.weth, data: encode(ERC20, 'withdraw', [3n * ETHER]) }])
    expect(run.changes[0]!.diff).toBe(3n * ETHER)
    expect(diffOf(run, s.weth)).toBe(-3n * ETHER)
  })

  it('a WETH transfer', async () => {
    const run = await scenario(alice, [transfer(s.weth, bob, ETHER / 2n)])
    expect(diffOf(run, s.weth)).toBe(-(ETHER / 2n))
  })
})

describe('edgetrace_previewTransactions against viem simulateCalls and mined truth: token quirks', () => {
  it('fee on transfer, sent: the sender pays the whole amount (1% burned on the way)', async () => {
    const run = await scenario(alice, [transfer(s.fee, bob, 100n * ETHER)])
    expect(diffOf(run, s.fee)).toBe(-100n * ETHER)
  })

  it('fee on transfer, pulled: transferFrom another account gives the account 99% of what the Transfer asked', async () => {
    await mineCalls(carol, [approve(s.fee, alice, 50n * ETHER)])
    const run = await scenario(alice, [{ to: s.fee, data: encode(ERC20, 'transferFrom', [carol, alice, 50n * ETHER]) }])
    expect(diffOf(run, s.fee)).toBe((50n * ETHER * 99n) / 100n)
  })

  it('fee on transfer, swapped in: the pair prices what reached it', async () => {
    const run = await scenario(alice, [
      approve(s.fee, s.router, 20n * ETHER),
      swapTokens(20n * ETHER, [s.fee, s.tokenA], alice),
    ])
    expect(diffOf(run, s.fee)).toBe(-20n * ETHER)
    expect(diffOf(run, s.tokenA)! > 0n).toBe(true)
  })

  it('fee on transfer, swapped out: the account receives 99% of what the pair sent', async () => {
    const run = await scenario(alice, [
      approve(s.tokenA, s.router, 20n * ETHER),
      swapTokens(20n * ETHER, [s.tokenA, s.fee], alice),
    ])
    const sent = run.preview.calls[1].logs.find(
      (l: any) => l.address === s.fee && l.topics[2] === `0x${alice.slice(2).padStart(64, '0')}`,
    )
    // The Transfer to the account says what it received (99%); the burn's Transfer names the pair.
    expect(diffOf(run, s.fee)).toBe(BigInt(sent.data))
  })

  it('rebasing: a transfer moves shares, the balance read differs from the Transfer amount by rounding', async () => {
    // A pool of 10 ether and a third: shares and balances no longer one to one.
    const pooled = BigInt(
      await rpcResult(devnet.anvil.url, 'eth_call', [{ to: s.rebase, data: encode(ERC20, 'pooled') }]),
    )
    await mineCalls(bob, [{ to: s.rebase, data: encode(ERC20, 'rebase', [pooled + pooled / 3n + 1n]) }])
    const run = await scenario(alice, [transfer(s.rebase, bob, 1000n * ETHER + 1n)])
    const asked = -(1000n * ETHER + 1n)
    expect(diffOf(run, s.rebase)).not.toBe(asked)
    expect(diffOf(run, s.rebase)! - asked < 3n).toBe(true)
  })

  it('rebasing: a rebase and a transfer in one sequence (every balance scaled, then shares moved)', async () => {
    const pooled = BigInt(
      await rpcResult(devnet.anvil.url, 'eth_call', [{ to: s.rebase, data: encode(ERC20, 'pooled') }]),
    )
    const run = await scenario(alice, [
      { to: s.rebase, data: encode(ERC20, 'rebase', [pooled * 2n]) },
      transfer(s.rebase, carol, ETHER),
    ])
    const c = find(run, s.rebase)!
    expect(c.post > c.pre).toBe(true)
  })

  it('rebasing: a rebase alone, no event names the account — the call’s `to` is read, so its balance move is seen (as viem sees it)', async () => {
    const pooled = BigInt(
      await rpcResult(devnet.anvil.url, 'eth_call', [{ to: s.rebase, data: encode(ERC20, 'pooled') }]),
    )
    const run = await scenario(alice, [{ to: s.rebase, data: encode(ERC20, 'rebase', [pooled + pooled / 10n]) }])
    const c = find(run, s.rebase)!
    expect(c.post > c.pre).toBe(true)
  })

  it('rebasing, swapped through the router', async () => {
    const run = await scenario(alice, [
      approve(s.rebase, s.router, 10n * ETHER),
      swapTokens(10n * ETHER, [s.rebase, s.tokenA], alice),
    ])
    expect(diffOf(run, s.tokenA)! > 0n).toBe(true)
  })

  it('no bool returned: transfer', async () => {
    const run = await scenario(alice, [transfer(s.noBool, bob, 1_000_000n)])
    expect(diffOf(run, s.noBool)).toBe(-1_000_000n)
    expect(run.preview.assetChanges[1].token).toMatchObject({ symbol: 'NOB', decimals: 6 })
  })

  it('no bool returned: approve, then transferFrom', async () => {
    const run = await scenario(alice, [
      approve(s.noBool, alice, 5_000_000n),
      { to: s.noBool, data: encode(ERC20, 'transferFrom', [alice, carol, 5_000_000n]) },
    ])
    expect(diffOf(run, s.noBool)).toBe(-5_000_000n)
  })

  it('no bool returned: approve, then a swap through the router (its safe transfer)', async () => {
    const run = await scenario(alice, [
      approve(s.noBool, s.router, 7_000_000n),
      swapTokens(7_000_000n, [s.noBool, s.tokenA], alice),
    ])
    expect(diffOf(run, s.noBool)).toBe(-7_000_000n)
    expect(diffOf(run, s.tokenA)! > 0n).toBe(true)
  })
})

describe('edgetrace_previewTransactions against viem simulateCalls and mined truth: NFTs (viem: a count for ERC-721, silent on ERC-1155)', () => {
  it('ERC-721 mint: the id gained (viem: the collection count +1, no id)', async () => {
    const id = nextNftId++
    const run = await scenario(alice, [{ to: s.nft, data: encode(NFT, 'mint', [alice]) }])
    expect(find(run, s.nft, id)).toMatchObject({ pre: 0n, post: 1n, diff: 1n })
  })

  it('ERC-721 transfer: the id lost (viem: count −1)', async () => {
    const id = nextNftId - 1n
    const run = await scenario(alice, [{ to: s.nft, data: encode(NFT, 'transferFrom', [alice, bob, id]) }])
    expect(find(run, s.nft, id)).toMatchObject({ pre: 1n, post: 0n, diff: -1n })
  })

  it('ERC-721: two mints, then one of them sent on (safeTransferFrom): one id kept, one lost', async () => {
    const [first, second] = [nextNftId, nextNftId + 1n]
    nextNftId += 2n
    const run = await scenario(alice, [
      { to: s.nft, data: encode(NFT, 'mint', [alice]) },
      { to: s.nft, data: encode(NFT, 'mint', [alice]) },
      { to: s.nft, data: encode(NFT, 'safeTransferFrom', [alice, carol, first]) },
    ])
    expect(find(run, s.nft, first)?.diff).toBe(0n)
    expect(find(run, s.nft, second)?.diff).toBe(1n)
  })

  it('ERC-1155 mint (TransferSingle): viem silent, checked against the mined balance', async () => {
    const run = await scenario(alice, [{ to: s.multi, data: encode(MULTI, 'mint', [alice, 1n, 10n]) }])
    expect(find(run, s.multi, 1n)).toMatchObject({ pre: 0n, post: 10n, diff: 10n })
    expect(run.preview.assetChanges[1].token.standard).toBe('erc1155')
  })

  it('ERC-1155 safeTransferFrom: viem silent', async () => {
    const run = await scenario(alice, [
      { to: s.multi, data: encode(MULTI, 'safeTransferFrom', [alice, bob, 1n, 4n, '0x']) },
    ])
    expect(diffOf(run, s.multi, 1n)).toBe(-4n)
  })

  it('ERC-1155 safeBatchTransferFrom (TransferBatch) of three ids: viem silent', async () => {
    const run = await scenario(alice, [
      { to: s.multi, data: encode(MULTI, 'mint', [alice, 2n, 5n]) },
      { to: s.multi, data: encode(MULTI, 'mint', [alice, 3n, 7n]) },
      { to: s.multi, data: encode(MULTI, 'safeBatchTransferFrom', [alice, carol, [1n, 2n, 3n], [1n, 2n, 3n], '0x']) },
    ])
    expect([1n, 2n, 3n].map((id) => diffOf(run, s.multi, id))).toEqual([-1n, 3n, 4n])
  })
})

describe('edgetrace_previewTransactions against viem simulateCalls and mined truth: a multicall', () => {
  it('approve the aggregator, then aggregate3 of two transferFroms of the account', async () => {
    const pulls = [bob, carol].map((to) => ({
      target: s.tokenA,
      allowFailure: false,
      callData: encode(ERC20, 'transferFrom', [alice, to, 3n * ETHER]),
    }))
    const run = await scenario(alice, [
      approve(s.tokenA, s.aggregator, 6n * ETHER),
      { to: s.aggregator, data: encode(AGGREGATOR, 'aggregate3', [pulls]) },
    ])
    expect(diffOf(run, s.tokenA)).toBe(-6n * ETHER)
  })

  it('aggregate3Value: ether to two accounts and a failure allowed', async () => {
    const sends = [
      { target: bob, allowFailure: false, value: ETHER / 4n, callData: '0x' },
      { target: carol, allowFailure: false, value: ETHER / 2n, callData: '0x' },
      { target: s.router, allowFailure: true, value: 0n, callData: '0xdeadbeef' },
    ]
    const run = await scenario(alice, [
      { to: s.aggregator, value: (3n * ETHER) / 4n, data: encode(AGGREGATOR, 'aggregate3Value', [sends]) },
    ])
    expect(run.changes[0]!.diff).toBe(-((3n * ETHER) / 4n))
  })
})

describe('edgetrace_previewTransactions against viem simulateCalls and mined truth: a smart-account sender (from has code)', () => {
  it('a token transfer sent as the smart account', async () => {
    const run = await scenario(s.smartAccount, [transfer(s.tokenA, bob, 2n * ETHER)])
    expect(diffOf(run, s.tokenA)).toBe(-2n * ETHER)
  })

  it('ether sent as the smart account', async () => {
    const run = await scenario(s.smartAccount, [{ to: carol, value: ETHER / 2n }])
    expect(run.changes[0]!.diff).toBe(-(ETHER / 2n))
  })

  it('execute: the smart account swaps ether for tokens through the router', async () => {
    const swap = encode(ROUTER, 'swapExactETHForTokens', [0n, [s.weth, s.tokenA], s.smartAccount, DEADLINE])
    const run = await scenario(s.smartAccount, [
      { to: s.smartAccount, data: encode(ACCOUNT, 'execute', [s.router, ETHER, swap]) },
    ])
    expect(run.changes[0]!.diff).toBe(-ETHER)
    expect(diffOf(run, s.tokenA)! > 0n).toBe(true)
  })

  it('execute: the smart account wraps ether (a Deposit names it, no Transfer, WETH not a call’s to: viem silent on WETH)', async () => {
    const run = await scenario(
      s.smartAccount,
      [{ to: s.smartAccount, data: encode(ACCOUNT, 'execute', [s.weth, ETHER, encode(ERC20, 'deposit')]) }],
      { viemSilent: [s.weth] },
    )
    expect(diffOf(run, s.weth)).toBe(ETHER)
    expect(run.changes[0]!.diff).toBe(-ETHER)
  })

  it('execute: approve and swap token → token in one sequence', async () => {
    const run = await scenario(s.smartAccount, [
      approve(s.tokenB, s.router, 3n * ETHER),
      {
        to: s.smartAccount,
        data: encode(ACCOUNT, 'execute', [
          s.router,
          0n,
          swapTokens(3n * ETHER, [s.tokenB, s.tokenA], s.smartAccount).data,
        ]),
      },
    ])
    expect(diffOf(run, s.tokenB)).toBe(-3n * ETHER)
    expect(diffOf(run, s.tokenA)! > 0n).toBe(true)
  })

  it('execute that reverts (a transfer beyond the balance): the inner reason decoded, nothing moved', async () => {
    const run = await scenario(s.smartAccount, [
      {
        to: s.smartAccount,
        data: encode(ACCOUNT, 'execute', [s.tokenA, 0n, transfer(s.tokenA, bob, 10n ** 30n).data]),
      },
    ])
    expect(run.preview.calls[0].revert).toMatchObject({ type: 'Error', message: 'balance' })
    expect(run.changes).toHaveLength(1)
  })
})

describe('edgetrace_previewTransactions: what a swap preview asks the upstream', () => {
  it('approve then swap with no allowance yet (the swap reverts on the block, its access list too): a warm preview at the block hash asks nothing', async () => {
    const proxy = await createProxy(devnet.anvil.url)
    const fresh = await startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague' })
    try {
      const head = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', ['latest', false])
      // Carol has given the router no TKB allowance: on the block's state the swap alone reverts.
      const calls = [approve(s.tokenB, s.router, ETHER), swapTokens(ETHER, [s.tokenB, s.tokenA], carol)].map((c) => ({
        from: carol,
        ...c,
      }))
      const params = [calls, { blockHash: head.hash }, { firstInteractionBlocks: 0, newContractDays: 0 }]
      const requests = async () => {
        const before = proxy.requests
        const res = await rpcResult(fresh.url, 'edgetrace_previewTransactions', params)
        expect(res.calls.map((c: any) => c.status)).toEqual(['success', 'success'])
        expect(signed(res.assetChanges[1].value.diff)).toBe(-ETHER)
        return proxy.requests - before
      }
      expect(await requests()).toBeGreaterThan(0)
      // Kept by block hash and calls: the reverting call's list (nothing) with the others.
      expect(await requests()).toBe(0)
    } finally {
      await fresh.close()
      await proxy.stop()
    }
  })
})
