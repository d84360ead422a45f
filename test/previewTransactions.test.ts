import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeCall, encodeDeploy } from '../src/node/devnet/abi.js'
import artifacts from '../src/node/devnet/artifacts.json' with { type: 'json' }
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { quantity } from '../src/utils/hex.js'
import { compileSolidity } from './src/compileSolidity.js'
import { createProxy } from './src/createProxy.js'
import { withDevnetAndEdgetrace } from './src/devnet.js'
import { mineTogether } from './src/mineTogether.js'
import { deployPreviewScenario } from './src/previewScenarioContracts.js'
import { deploy, rpc, rpcResult, waitForReceipt } from './src/rpc.js'

// edgetrace_previewTransactions on the devnet, measured against mined truth: each previewed sequence
// is then sent to anvil and mined in the next block, and every `post` equals the balance edgetrace
// proves at the mined block (eth_call balanceOf, eth_getBalance), ether net of the gas the mined
// transactions paid — which the preview's `gasPaid` equals where the calls give their fees.

let devnet: Devnet
let edge: RunningEdgetrace
let stop: () => Promise<void>
let alice: `0x${string}`
let bob: `0x${string}`
let carol: `0x${string}`
let token: `0x${string}`
let scenarios: `0x${string}`

const ETHER = 10n ** 18n
const ARTIFACTS = (artifacts as unknown as { contracts: Record<string, { bytecode: `0x${string}` }> }).contracts
const FEES = { maxFeePerGas: quantity(20_000_000_000n), maxPriorityFeePerGas: quantity(1_000_000_000n) }
const GAS = { gas: quantity(200_000) }

beforeAll(async () => {
  ;({ devnet, edge, stop } = await withDevnetAndEdgetrace())
  ;[alice, bob, carol] = devnet.accounts as [`0x${string}`, `0x${string}`, `0x${string}`]
  token = devnet.contracts.Token! as `0x${string}`
  scenarios = devnet.contracts.Scenarios! as `0x${string}`
}, 60_000)
afterAll(() => stop())

const latest = async () => BigInt(await rpcResult(devnet.anvil.url, 'eth_blockNumber'))
/** balanceOf(who) proven at the block; an address without code there (no token yet) answers 0x: none. */
const balanceOf = async (who: string, block: bigint, erc20 = token) => {
  const out = await rpcResult(edge.url, 'eth_call', [
    { to: erc20, data: encodeCall('balanceOf(address)', [who as `0x${string}`]) },
    quantity(block),
  ])
  return out === '0x' ? 0n : BigInt(out)
}
const ether = async (who: string, block: bigint) =>
  BigInt(await rpcResult(edge.url, 'eth_getBalance', [who, quantity(block)]))

/** Sends the transactions to anvil and mines them together in one block; their receipts. */
const mine = (txs: Record<string, unknown>[]) => mineTogether(devnet.anvil.url, txs)

/** A preview at the latest block, then the same calls mined in the next: the preview and what was mined. */
async function previewThenMine(calls: Record<string, unknown>[], options?: unknown) {
  const base = await latest()
  const res = await rpc(edge.url, 'edgetrace_previewTransactions', [
    calls,
    quantity(base),
    ...(options ? [options] : []),
  ])
  expect(res.error, JSON.stringify(res.error)).toBeUndefined()
  const nonce = BigInt(await rpcResult(devnet.anvil.url, 'eth_getTransactionCount', [calls[0]!.from, 'latest']))
  const receipts = await mine(calls.map((c, i) => ({ ...GAS, ...FEES, ...c, nonce: quantity(nonce + BigInt(i)) })))
  const mined = BigInt(receipts[0].blockNumber)
  expect(mined).toBe(base + 1n)
  for (const r of receipts) expect(BigInt(r.blockNumber)).toBe(mined)
  const gasPaid = receipts.reduce((sum, r) => sum + BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice), 0n)
  return { preview: res.result, receipts, base, mined, gasPaid }
}

/** Every asset change's post equals the balance proven at the mined block (ether net of the gas paid). */
async function expectMinedTruth(preview: any, account: string, mined: bigint, gasPaid: bigint, erc20 = token) {
  const [native, ...tokens] = preview.assetChanges
  expect(native.token.standard).toBe('native')
  expect(BigInt(native.value.post) - gasPaid).toBe(await ether(account, mined))
  expect(BigInt(native.value.pre)).toBe(await ether(account, mined - 1n))
  for (const t of tokens) {
    expect(t.token.address).toBe(erc20)
    expect(BigInt(t.value.post)).toBe(await balanceOf(account, mined, erc20))
    expect(BigInt(t.value.pre)).toBe(await balanceOf(account, mined - 1n, erc20))
  }
}

const signed = (v: string) => (v.startsWith('-') ? -BigInt(v.slice(1)) : BigInt(v))

describe('edgetrace_previewTransactions against mined truth', () => {
  it('a token transfer: the token with its metadata, pre/post/diff by balanceOf, ether moved only by gas', async () => {
    const calls = [
      { from: alice, ...FEES, ...GAS, to: token, data: encodeCall('transfer(address,uint256)', [bob, 7n * ETHER]) },
    ]
    const { preview, receipts, base, mined, gasPaid } = await previewThenMine(calls)
    expect(preview.block).toEqual({
      number: quantity(base),
      hash: (await rpcResult(edge.url, 'eth_getBlockByNumber', [quantity(base), false])).hash,
    })
    expect(preview.trust.mode).toBe('upstream')
    expect(preview.account).toBe(alice)
    expect(preview.calls).toHaveLength(1)
    expect(preview.calls[0].status).toBe('success')
    expect(preview.calls[0].gasUsed).toBe(receipts[0].gasUsed)
    expect(preview.calls[0].revert).toBeNull()
    expect(preview.calls[0].logs).toHaveLength(1)
    expect(preview.calls[0].logs[0].address).toBe(token)
    expect(preview.assetChanges).toHaveLength(2)
    const [native, edge20] = preview.assetChanges
    expect(native.value.diff).toBe('0x0')
    expect(BigInt(native.gasPaid)).toBe(gasPaid)
    expect(edge20.token).toEqual({
      address: token,
      standard: 'erc20',
      symbol: 'EDGE',
      name: 'Edge Token',
      decimals: 18,
    })
    expect(signed(edge20.value.diff)).toBe(-7n * ETHER)
    await expectMinedTruth(preview, alice, mined, gasPaid)
  })

  it('an ether transfer: native pre/post/diff net of gas, gasPaid as mined, no token', async () => {
    const calls = [{ from: bob, ...FEES, ...GAS, to: carol, value: quantity(3n * ETHER) }]
    const { preview, mined, gasPaid } = await previewThenMine(calls)
    expect(preview.calls[0].status).toBe('success')
    expect(preview.assetChanges).toHaveLength(1)
    expect(signed(preview.assetChanges[0].value.diff)).toBe(-3n * ETHER)
    expect(BigInt(preview.assetChanges[0].gasPaid)).toBe(gasPaid)
    await expectMinedTruth(preview, bob, mined, gasPaid)
  })

  it('a token created by the calls: pre zero (no code on the block), post its minted supply', async () => {
    const supply = 1234n * ETHER
    const calls = [
      { from: carol, ...FEES, gas: quantity(2_000_000), data: encodeDeploy(ARTIFACTS.Token!.bytecode, [supply]) },
    ]
    const { preview, receipts, mined, gasPaid } = await previewThenMine(calls)
    const created = receipts[0].contractAddress.toLowerCase()
    const [, minted] = preview.assetChanges
    expect(minted.token).toEqual({
      address: created,
      standard: 'erc20',
      symbol: 'EDGE',
      name: 'Edge Token',
      decimals: 18,
    })
    expect(minted.value).toEqual({ pre: '0x0', post: quantity(supply), diff: quantity(supply) })
    await expectMinedTruth(preview, carol, mined, gasPaid, created)
  })

  it('a reverting call: its Error(string) decoded, nothing moved but gas', async () => {
    const calls = [{ from: alice, ...FEES, ...GAS, to: scenarios, data: encodeCall('revertWithReason()') }]
    const { preview, receipts, mined, gasPaid } = await previewThenMine(calls)
    expect(receipts[0].status).toBe('0x0')
    const [call] = preview.calls
    expect(call.status).toBe('failure')
    expect(call.gasUsed).toBe(receipts[0].gasUsed)
    expect(call.error).toEqual({ message: 'execution reverted: scenario reverted', code: 3 })
    expect(call.revert).toMatchObject({ type: 'Error', message: 'scenario reverted' })
    expect(preview.assetChanges).toHaveLength(1)
    expect(preview.assetChanges[0].value.diff).toBe('0x0')
    expect(BigInt(preview.assetChanges[0].gasPaid)).toBe(gasPaid)
    await expectMinedTruth(preview, alice, mined, gasPaid)
  })

  it('a sequence: approve, a pull by the approved contract (two Transfers) and an ether transfer, mined in one block', async () => {
    const calls = [
      {
        from: alice,
        ...FEES,
        ...GAS,
        to: token,
        data: encodeCall('approve(address,uint256)', [scenarios, 5n * ETHER]),
      },
      {
        from: alice,
        ...FEES,
        ...GAS,
        to: scenarios,
        data: encodeCall('pull(address,address,uint256)', [token, alice, 2n * ETHER]),
      },
      { from: alice, ...FEES, ...GAS, to: carol, value: quantity(ETHER / 4n) },
    ]
    const { preview, receipts, mined, gasPaid } = await previewThenMine(calls)
    expect(preview.calls.map((c: any) => c.status)).toEqual(['success', 'success', 'success'])
    expect(preview.calls.map((c: any) => c.gasUsed)).toEqual(receipts.map((r) => r.gasUsed))
    const [native, edge20] = preview.assetChanges
    expect(signed(native.value.diff)).toBe(-(ETHER / 4n))
    expect(BigInt(native.gasPaid)).toBe(gasPaid)
    expect(edge20.token.address).toBe(token)
    // Scenarios.pull takes 2 EDGE and gives half back: two Transfers of alice, one balance read.
    expect(signed(edge20.value.diff)).toBe(-1n * ETHER)
    await expectMinedTruth(preview, alice, mined, gasPaid)
  })
})

describe('edgetrace_previewTransactions options.transactionIndex: where a mined transaction ran', () => {
  it('a transaction second in its block, previewed at its index, gives the balances it was mined with; at the block before, not', async () => {
    const nonceOf = async (who: string) =>
      BigInt(await rpcResult(devnet.anvil.url, 'eth_getTransactionCount', [who, 'latest']))
    // carol holds some EDGE; then in one block: alice sends carol 10 EDGE (a higher tip: first), and
    // carol sends bob 3 EDGE.
    await mine([
      {
        from: alice,
        ...GAS,
        ...FEES,
        to: token,
        data: encodeCall('transfer(address,uint256)', [carol, 20n * ETHER]),
        nonce: quantity(await nonceOf(alice)),
      },
    ])
    const first = {
      from: alice,
      ...GAS,
      maxFeePerGas: quantity(30_000_000_000n),
      maxPriorityFeePerGas: quantity(5_000_000_000n),
      to: token,
      data: encodeCall('transfer(address,uint256)', [carol, 10n * ETHER]),
      nonce: quantity(await nonceOf(alice)),
    }
    const call = {
      from: carol,
      ...GAS,
      ...FEES,
      to: token,
      data: encodeCall('transfer(address,uint256)', [bob, 3n * ETHER]),
    }
    const receipts = await mine([first, { ...call, nonce: quantity(await nonceOf(carol)) }])
    expect(receipts.map((r) => Number(r.transactionIndex))).toEqual([0, 1])
    const mined = BigInt(receipts[1].blockNumber)
    const minedHash = receipts[1].blockHash
    const fee = BigInt(receipts[1].gasUsed) * BigInt(receipts[1].effectiveGasPrice)

    const res = await rpcResult(edge.url, 'edgetrace_previewTransactions', [
      [call],
      { blockHash: minedHash },
      { transactionIndex: 1 },
    ])
    expect(res.block).toEqual({ number: quantity(mined), hash: minedHash, transactionIndex: 1 })
    expect(res.calls[0].status).toBe('success')
    expect(res.calls[0].gasUsed).toBe(receipts[1].gasUsed)
    const [native, edge20] = res.assetChanges
    // Before it: the block's parent state and alice's transfer to carol.
    expect(BigInt(edge20.value.pre)).toBe((await balanceOf(carol, mined - 1n)) + 10n * ETHER)
    expect(BigInt(edge20.value.post)).toBe(await balanceOf(carol, mined))
    expect(signed(edge20.value.diff)).toBe(-3n * ETHER)
    // Ether: moved only by the gas, paid at the block's own base fee as mined.
    expect(BigInt(native.value.pre)).toBe(await ether(carol, mined - 1n))
    expect(BigInt(native.gasPaid)).toBe(fee)
    expect(BigInt(native.value.post) - fee).toBe(await ether(carol, mined))

    // The same call on the block before (not positioned): carol's EDGE before alice's transfer — not
    // what it was mined with.
    const unpositioned = await rpcResult(edge.url, 'edgetrace_previewTransactions', [[call], quantity(mined - 1n)])
    expect(BigInt(unpositioned.assetChanges[1].value.pre)).toBe(BigInt(edge20.value.pre) - 10n * ETHER)
    expect(unpositioned.block.transactionIndex).toBeUndefined()

    // Index 0 of the block: before alice's transfer; a quantity is taken too.
    const atStart = await rpcResult(edge.url, 'edgetrace_previewTransactions', [
      [call],
      quantity(mined),
      { transactionIndex: '0x0' },
    ])
    expect(atStart.assetChanges[1].value.pre).toBe(unpositioned.assetChanges[1].value.pre)
    expect(atStart.block.transactionIndex).toBe(0)

    // Past the block's end, or not an index: -32602 naming the option.
    const past = await rpc(edge.url, 'edgetrace_previewTransactions', [
      [call],
      quantity(mined),
      { transactionIndex: 3 },
    ])
    expect(past.error).toMatchObject({ code: -32602 })
    expect(past.error.message).toMatch(
      /options\.transactionIndex: transaction index 3 out of range \(block \d+ has 2 transactions\)/,
    )
    for (const bad of [-1, 1.5, 'two']) {
      const res = await rpc(edge.url, 'edgetrace_previewTransactions', [
        [call],
        quantity(mined),
        { transactionIndex: bad },
      ])
      expect(res.error?.code, String(bad)).toBe(-32602)
      expect(res.error.message).toMatch(/invalid argument 2: options\.transactionIndex: expected a transaction's index/)
    }
  })
})

describe('edgetrace_previewTransactions options.transactionIndex over the devnet', () => {
  it('every labelled devnet transaction, previewed as a call from its sender at its index: status and gas used as mined, ether as mined (net of its fee)', async () => {
    const failures: string[] = []
    const txs = await Promise.all(
      devnet.transactions.map((t) => rpcResult(devnet.anvil.url, 'eth_getTransactionByHash', [t.hash])),
    )
    expect(txs.length).toBeGreaterThan(20)
    for (const [i, t] of devnet.transactions.entries()) {
      const tx = txs[i]
      const receipt = await rpcResult(devnet.anvil.url, 'eth_getTransactionReceipt', [t.hash])
      const call: Record<string, unknown> = { from: tx.from, value: tx.value, data: tx.input, gas: tx.gas }
      if (tx.to) call.to = tx.to
      for (const key of ['maxFeePerGas', 'maxPriorityFeePerGas', 'accessList', 'authorizationList'])
        if (tx[key] !== undefined) call[key] = tx[key]
      if (tx.maxFeePerGas === undefined) call.gasPrice = tx.gasPrice
      const res = await rpc(edge.url, 'edgetrace_previewTransactions', [
        [call],
        { blockHash: tx.blockHash },
        { transactionIndex: tx.transactionIndex, firstInteractionBlocks: 0, newContractDays: 0 },
      ])
      if (res.error) {
        failures.push(`${t.label}: ${JSON.stringify(res.error)}`)
        continue
      }
      const [c] = res.result.calls
      const fee = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice)
      const native = res.result.assetChanges[0]
      const after = await ether(tx.from, BigInt(receipt.blockNumber))
      let seen = `${c.status}/${c.gasUsed}/${BigInt(native.gasPaid)}/${BigInt(native.value.post) - fee}`
      let mined = `${receipt.status === '0x1' ? 'success' : 'failure'}/${receipt.gasUsed}/${fee}/${after}`
      // A sender with a later transaction in the same block: the block's end has that one's ether too.
      const later = txs.some(
        (o) =>
          o.blockHash === tx.blockHash &&
          o.from === tx.from &&
          BigInt(o.transactionIndex) > BigInt(tx.transactionIndex),
      )
      if (later) {
        seen = seen.slice(0, seen.lastIndexOf('/'))
        mined = mined.slice(0, mined.lastIndexOf('/'))
      }
      if (seen !== mined) failures.push(`${t.label}: preview ${seen}, mined ${mined}`)
    }
    expect(failures).toEqual([])
  }, 120_000)
})

describe('edgetrace_previewTransactions without mining', () => {
  it('a Panic(uint256) is decoded with its code', async () => {
    const res = await rpcResult(edge.url, 'edgetrace_previewTransactions', [
      [{ from: alice, to: scenarios, data: encodeCall('panicDivide(uint256)', [0]) }],
    ])
    expect(res.calls[0].status).toBe('failure')
    expect(res.calls[0].revert).toMatchObject({ type: 'Panic', code: '0x12', message: 'division or modulo by zero' })
  })

  it('a custom error is given as its raw data; a sender with code is allowed, as in eth_call', async () => {
    const res = await rpcResult(edge.url, 'edgetrace_previewTransactions', [
      [{ from: token, to: scenarios, data: encodeCall('revertWithCustom(uint256)', [7]) }],
    ])
    expect(res.account).toBe(token)
    expect(res.calls[0].revert.type).toBe('unknown')
    expect(res.calls[0].revert.data).toMatch(/^0x[0-9a-f]{8}/)
  })

  it("calls without from are options.account's", async () => {
    const res = await rpcResult(edge.url, 'edgetrace_previewTransactions', [
      [{ to: token, data: encodeCall('transfer(address,uint256)', [carol, 3n]) }],
      'latest',
      { account: alice },
    ])
    expect(res.account).toBe(alice)
    expect(res.calls[0].status).toBe('success')
    expect(res.assetChanges[1].value.diff).toBe('-0x3')
  })

  it('options.account: the asset changes of another account (the recipient)', async () => {
    const res = await rpcResult(edge.url, 'edgetrace_previewTransactions', [
      [{ from: alice, to: token, data: encodeCall('transfer(address,uint256)', [carol, 11n]) }],
      'latest',
      { account: carol },
    ])
    expect(res.account).toBe(carol)
    expect(res.assetChanges[1].value.diff).toBe('0xb')
    expect(res.assetChanges[0].value.diff).toBe('0x0')
  })

  it('bad input: -32602 naming the argument', async () => {
    const cases: [unknown[], RegExp][] = [
      [[{ from: alice }], /invalid argument 0: calls: expected an array/],
      [[[]], /calls: empty/],
      [[[{ from: alice, to: 'nope' }]], /calls\[0\]: field "to"/],
      [
        [
          [
            { from: alice, to: carol },
            { from: bob, to: carol },
          ],
        ],
        /calls\[1\]\.from: .*the calls are from one account/,
      ],
      [[[{ from: alice, to: carol }], 'latest', { account: '0x12' }], /invalid argument 2: options\.account/],
      [[[{ from: alice, to: carol }], 'latest', { acount: alice }], /options\.acount: unknown option/],
      [[[{ to: carol }]], /calls\[0\]\.from: missing, and no options\.account/],
    ]
    for (const [params, message] of cases) {
      const res = await rpc(edge.url, 'edgetrace_previewTransactions', params)
      expect(res.error?.code, JSON.stringify(params)).toBe(-32602)
      expect(res.error.message).toMatch(message)
    }
    const far = await rpc(edge.url, 'edgetrace_previewTransactions', [[{ from: alice, to: carol }], '0xffffff'])
    expect(far.error).toMatchObject({ code: -32000, message: 'header not found' })
  })

  it('a cold preview of a token transfer: three upstream round trips (two, and the recipient for its signal), none warm; three more with the firstInteraction window, none when repeated', async () => {
    const proxy = await createProxy(devnet.anvil.url)
    const cold = await startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague' })
    try {
      const calls = [{ from: alice, to: token, data: encodeCall('transfer(address,uint256)', [bob, 5n]) }]
      const head = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', ['latest', false])
      const trips = async (options: object = { firstInteractionBlocks: 0 }) => {
        const before = proxy.requests
        const res = await rpcResult(cold.url, 'edgetrace_previewTransactions', [
          calls,
          { blockHash: head.hash },
          options,
        ])
        expect(res.assetChanges[1].value.diff).toBe('-0x5')
        return proxy.requests - before
      }
      // Round trip 1: the header with each call's access list (and one list of the target's metadata
      // reads); 2: every account, slot and code they name, the reader's and the system contracts' (no
      // trie nodes: the simulated blocks' roots are not computed); 3: the recipient's proven account,
      // for the recipientIsEoa signal (the transfer touches only the token's storage).
      expect(await trips()).toBe(3)
      expect(await trips()).toBe(0)
      // firstInteraction's default window (32 blocks), warm otherwise: the window's headers by the
      // block's parent links, the account's proof at its start, and (the account sent in it) the
      // window's bodies — three more. Repeated: nothing (it asked the window's 32 headers by number each time).
      expect(await trips({})).toBe(3)
      expect(await trips({})).toBe(0)
    } finally {
      await cold.close()
      await proxy.stop()
    }
  })

  it('is served with eth: a listener without eth answers -32601 naming --http.api, edgetrace_trust still served', async () => {
    const noEth = await startEdgetrace({ upstream: devnet.anvil.url, port: 0, hardfork: 'prague', api: ['debug'] })
    try {
      const res = await rpc(noEth.url, 'edgetrace_previewTransactions', [[{ from: alice, to: carol }]])
      expect(res.error.code).toBe(-32601)
      expect(res.error.message).toMatch(/served with the eth namespace: add eth to --http.api/)
      expect((await rpc(noEth.url, 'edgetrace_trust', [])).result.mode).toBe('upstream')
    } finally {
      await noEth.close()
    }
  })
})

/** WETH9's shape (Deposit/Withdrawal events, no Transfer on wrap), its symbol a bytes32 as in older tokens. */
const WETH_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;
contract Weth {
    string public constant name = "Wrapped Ether";
    bytes32 public constant symbol = "WETH";
    uint8 public constant decimals = 18;
    mapping(address => uint256) public balanceOf;
    event Deposit(address indexed dst, uint256 wad);
    event Withdrawal(address indexed src, uint256 wad);
    function deposit() external payable {
        balanceOf[msg.sender] += msg.value;
        emit Deposit(msg.sender, msg.value);
    }
    function withdraw(uint256 wad) external {
        require(balanceOf[msg.sender] >= wad, "insufficient WETH");
        balanceOf[msg.sender] -= wad;
        (bool ok, ) = msg.sender.call{value: wad}("");
        require(ok, "send failed");
        emit Withdrawal(msg.sender, wad);
    }
}`

describe('edgetrace_previewTransactions: WETH wrap and unwrap against mined truth', () => {
  let weth: `0x${string}`
  beforeAll(async () => {
    weth = (
      await deploy(devnet.anvil.url, compileSolidity('Weth.sol', WETH_SOURCE).Weth!.creation)
    ).toLowerCase() as `0x${string}`
  }, 60_000)

  it('wrap (Deposit): ether down by the value, WETH up by it, its bytes32 symbol read as text', async () => {
    const calls = [
      { from: carol, ...FEES, ...GAS, to: weth, data: encodeCall('deposit()'), value: quantity(2n * ETHER) },
    ]
    const { preview, mined, gasPaid } = await previewThenMine(calls)
    const [native, wrapped] = preview.assetChanges
    expect(signed(native.value.diff)).toBe(-2n * ETHER)
    expect(BigInt(native.gasPaid)).toBe(gasPaid)
    expect(wrapped.token).toEqual({
      address: weth,
      standard: 'erc20',
      symbol: 'WETH',
      name: 'Wrapped Ether',
      decimals: 18,
    })
    expect(wrapped.value).toEqual({ pre: '0x0', post: quantity(2n * ETHER), diff: quantity(2n * ETHER) })
    await expectMinedTruth(preview, carol, mined, gasPaid, weth)
  })

  it('unwrap (Withdrawal): WETH down, ether up by the amount', async () => {
    const calls = [{ from: carol, ...FEES, ...GAS, to: weth, data: encodeCall('withdraw(uint256)', [ETHER / 2n]) }]
    const { preview, mined, gasPaid } = await previewThenMine(calls)
    const [native, wrapped] = preview.assetChanges
    expect(signed(native.value.diff)).toBe(ETHER / 2n)
    expect(signed(wrapped.value.diff)).toBe(-(ETHER / 2n))
    await expectMinedTruth(preview, carol, mined, gasPaid, weth)
  })
})

describe('edgetrace_previewTransactions: the upstream round trips of an ERC-20 swap (bench/preview.ts), cold and warm', () => {
  const word = (v: bigint | string) =>
    (typeof v === 'bigint' ? v.toString(16) : v.slice(2).toLowerCase()).padStart(64, '0')
  let swap: { from: string; to: string; data: string }
  let blockHash: string
  let tokens: string[]
  beforeAll(async () => {
    const s = await deployPreviewScenario(devnet.anvil.url, devnet.accounts[0]! as `0x${string}`, [carol])
    tokens = [s.tokenA, s.tokenB]
    // swapExactTokensForTokens(10 TKA, 0, [TKA, TKB], carol, deadline), the router's allowance given on chain.
    swap = {
      from: carol,
      to: s.router,
      data: `0x38ed1739${word(10n * ETHER)}${word(0n)}${word(0xa0n)}${word(carol)}${word(2n ** 40n)}${word(2n)}${word(s.tokenA)}${word(s.tokenB)}`,
    }
    const approved = await rpcResult(devnet.anvil.url, 'eth_sendTransaction', [
      { from: carol, to: s.tokenA, data: `0x095ea7b3${word(s.router)}${word(2n ** 255n)}` },
    ])
    await waitForReceipt(devnet.anvil.url, approved)
    blockHash = (await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', ['latest', false])).hash
  }, 120_000)

  /** Round trips and requests of each request in turn, on a fresh edgetrace behind 50 ms of latency. */
  async function measure(method: string, params: unknown[], times: number) {
    const proxy = await createProxy(devnet.anvil.url, { delayMs: 50 })
    const fresh = await startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague' })
    try {
      const out: { roundTrips: number; requests: number; result: any }[] = []
      for (let i = 0; i < times; i++) {
        fresh.upstream.resetStats()
        const result = await rpcResult(fresh.url, method, params)
        const { roundTrips, requests } = fresh.upstream.stats()
        out.push({ roundTrips, requests, result })
      }
      return out
    } finally {
      await fresh.close()
      await proxy.stop()
    }
  }

  it("signals that read history off: cold in eth_simulateV1's round trips (3: the tokens' metadata slots listed and fetched beside the calls' state), warm none", async () => {
    const [simulated] = await measure('eth_simulateV1', [{ blockStateCalls: [{ calls: [swap] }] }, { blockHash }], 1)
    const [cold, warm] = await measure(
      'edgetrace_previewTransactions',
      [[swap], { blockHash }, { firstInteractionBlocks: 0, newContractDays: 0 }],
      2,
    )
    // The preview answers what it did before: ether, TKA and TKB with their metadata.
    expect(
      cold!.result.assetChanges.map((a: any) => [a.token.address.toLowerCase(), a.token.symbol, a.token.name]),
    ).toEqual([
      ['0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', 'ETH', 'Ether'],
      [tokens[0], 'TKA', 'Token A'],
      [tokens[1], 'TKB', 'Token B'],
    ])
    expect(warm!.result).toEqual(cold!.result)
    // 1: the header, the calls' access lists and one of the target's metadata reads; 2: what they name,
    // and beside it one list of every other listed contract's metadata and balance reads; 3: those
    // reads' slots (TKA's and TKB's name and symbol, read one slot at a time as each read ran: 6 before).
    expect(simulated!.roundTrips).toBe(3)
    expect(cold!.roundTrips).toBe(3)
    expect(warm!.requests).toBe(0)
  }, 60_000)

  it("an upstream that refuses the reads' lists (a creation call's eth_createAccessList answered with an error): the same preview, its reads fetched as they run; warm nothing", async () => {
    const params = [[swap], { blockHash }, { firstInteractionBlocks: 0, newContractDays: 0 }]
    const [expected] = await measure('edgetrace_previewTransactions', params, 1)
    const proxy = await createProxy(devnet.anvil.url, {
      callError: (c) =>
        c.method === 'eth_createAccessList' && !(c.params[0] as { to?: string }).to
          ? { code: -32000, message: 'creation calls refused here' }
          : undefined,
    })
    const fresh = await startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague' })
    try {
      const refused = () => proxy.log.filter((c) => c.method === 'eth_createAccessList' && !(c.params[0] as any).to)
      expect(await rpcResult(fresh.url, 'edgetrace_previewTransactions', params)).toEqual(expected!.result)
      expect(refused().length).toBe(2)
      const before = proxy.requests
      expect(await rpcResult(fresh.url, 'edgetrace_previewTransactions', params)).toEqual(expected!.result)
      expect(proxy.requests - before).toBe(0)
    } finally {
      await fresh.close()
      await proxy.stop()
    }
  }, 60_000)

  it('default options: cold 4 round trips (the firstInteraction window beside the preview), warm none (2 requests, the window asked by number, before)', async () => {
    const [cold, warm] = await measure('edgetrace_previewTransactions', [[swap], { blockHash }], 2)
    expect(cold!.result.signals.map((s: any) => s.kind)).toEqual(['firstInteraction'])
    expect(warm!.result).toEqual(cold!.result)
    // 1: header and lists; 2: the state, the metadata reads' list and the window's 32 headers (by the
    // block's parent links); 3: the metadata slots and the account's proof at the window's start;
    // 4: the window's bodies (carol sent the approval in it).
    expect(cold!.roundTrips).toBe(4)
    expect(warm!.requests).toBe(0)
  }, 60_000)
})
