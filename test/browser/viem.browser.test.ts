import { BrowserProvider, JsonRpcProvider } from 'ethers'
import {
  type Address,
  type Hex,
  type PublicClient,
  type StateOverride,
  createPublicClient,
  custom,
  decodeFunctionResult,
  encodeFunctionData,
  http,
  numberToHex,
  parseAbi,
  parseEther,
  zeroAddress,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type EdgetraceEip1193Provider, createEip1193Provider } from '../../src/browser/createEip1193Provider.js'
import { registerEdgetraceServiceWorker } from '../../src/browser/registerEdgetraceServiceWorker.js'
import { configFor, env, serviceWorkerScript, startWorker, txByLabel } from './support.js'

const abi = parseAbi([
  'function transfer(address to, uint256 value) returns (bool)',
  'function balanceOf(address who) view returns (uint256)',
  'function pull(address token, address from, uint256 amount) returns (uint256)',
  'function pay(address to, uint256 amount) payable',
  'function revertWithReason()',
  'function accounts(address[] who) view returns (uint256[] balances, uint256[] sizes, bytes32[] hashes)',
])

type Call = { to: Address; data: Hex; value?: bigint }

/**
 * What of viem's simulateCalls answer anvil can be compared on (see the deviations below): per call
 * the return data, gas used, status and logs without the simulated block's number, hash, timestamp
 * and transaction hash — the fields viem's asset-change preview and a wallet's call list read.
 */
function comparable(
  results: readonly { data: Hex; gasUsed: bigint; status: string; logs?: readonly unknown[] | undefined }[],
) {
  return results.map((r) => ({
    data: r.data,
    gasUsed: r.gasUsed,
    status: r.status,
    logs: (r.logs ?? []).map((l) => {
      const { address, topics, data, logIndex, transactionIndex, removed } = l as Record<string, unknown>
      return { address, topics, data, logIndex, transactionIndex, removed }
    }),
  }))
}

/**
 * viem's asset changes for `account` after `calls`, computed from anvil's own answers: balances at
 * the base block (eth_getBalance, eth_call balanceOf), after the calls from anvil's eth_simulateV1
 * with read-only probes appended to the same block (the devnet's Inspector.accounts for ETH, the
 * token's balanceOf), symbol and decimals by eth_call. anvil cannot run viem's own probes: its
 * eth_simulateV1 refuses a call without `to` (viem's deployless balance read).
 */
async function anvilAssetChanges(
  anvil: PublicClient,
  blockNumber: bigint,
  account: Address,
  calls: Call[],
  stateOverrides?: StateOverride,
) {
  const { Token: token, Inspector: inspector } = env().contracts as Record<string, Address>
  const pre = [
    stateOverrides?.find((o) => o.address === account)?.balance ??
      (await anvil.getBalance({ address: account, blockNumber })),
    await anvil.readContract({ address: token, abi, functionName: 'balanceOf', args: [account], blockNumber }),
  ]
  const [block] = await anvil.simulateBlocks({
    blockNumber,
    blocks: [
      {
        calls: [
          ...calls.map((c) => ({ ...c, from: account })),
          { to: inspector, data: encodeFunctionData({ abi, functionName: 'accounts', args: [[account]] }) },
          { to: token, data: encodeFunctionData({ abi, functionName: 'balanceOf', args: [account] }) },
        ],
        stateOverrides,
      },
    ],
  })
  const probes = block!.calls.slice(calls.length)
  const [balances] = decodeFunctionResult({ abi, functionName: 'accounts', data: probes[0]!.data })
  const post = [balances[0]!, BigInt(probes[1]!.data)]
  const symbol = await anvil.readContract({
    address: token,
    abi: parseAbi(['function symbol() view returns (string)']),
    functionName: 'symbol',
  })
  const decimals = await anvil.readContract({
    address: token,
    abi: parseAbi(['function decimals() view returns (uint8)']),
    functionName: 'decimals',
  })
  return [
    { token: { address: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', decimals: 18, symbol: 'ETH' }, i: 0 },
    { token: { address: token.toLowerCase(), decimals, symbol }, i: 1 },
  ].map(({ token, i }) => ({ token, value: { pre: pre[i]!, post: post[i]!, diff: post[i]! - pre[i]! } }))
}

// viem (simulateCalls with asset changes, simulateBlocks) and ethers (BrowserProvider reads), unchanged,
// through edgetrace in the page's worker: equal to the same questions put to anvil directly.
//
// anvil's eth_simulateV1 deviates from geth's (which edgetrace follows), so only the fields above are
// compared: anvil numbers the first simulated block as the base block (logs' blockNumber 37 where
// geth and edgetrace say 38), gives it the base block's timestamp (geth: parent + 12), answers no
// `maxUsedGas`, and refuses calls without `to` ("eip1559 transaction can't be built due to missing
// keys: [\"to\"]"), so viem's `traceAssetChanges` fails outright against anvil.
describe('viem and ethers over the EIP-1193 provider, equal to anvil', () => {
  let provider: EdgetraceEip1193Provider
  let edge: PublicClient
  let anvil: PublicClient
  let blockNumber: bigint
  let alice: Address
  let bob: Address
  beforeAll(async () => {
    provider = createEip1193Provider(await startWorker())
    edge = createPublicClient({ transport: custom(provider) })
    anvil = createPublicClient({ transport: http(env().anvilUrl) })
    blockNumber = await anvil.getBlockNumber()
    ;[alice, bob] = env().accounts as [Address, Address]
  })
  afterAll(async () => {
    await provider?.close()
  })

  it('simulateCalls: an ERC-20 transfer with its asset changes', async () => {
    const token = env().contracts.Token!
    const calls = [
      { to: token, data: encodeFunctionData({ abi, functionName: 'transfer', args: [bob, parseEther('10')] }) },
    ]
    // As a wallet calls it: at `latest` (viem resolves it with eth_blockNumber first), the requests
    // recorded on their way to the provider.
    const methods: string[] = []
    const recorded = createPublicClient({
      transport: custom({
        request: (args: { method: string; params?: unknown[] }) => {
          methods.push(args.method)
          return provider.request(args)
        },
      }),
    })
    const got = await recorded.simulateCalls({ account: alice, calls, traceAssetChanges: true })
    expect([...new Set(methods)].sort()).toEqual(['eth_blockNumber', 'eth_call', 'eth_simulateV1'])
    const want = await anvil.simulateCalls({ account: alice, blockNumber, calls })
    expect(comparable(got.results)).toEqual(comparable(want.results))
    expect(got.results.map((r) => r.status)).toEqual(['success'])
    expect(got.assetChanges).toEqual(await anvilAssetChanges(anvil, blockNumber, alice, calls))
    expect(got.assetChanges.map((c) => [c.token.symbol, c.value.diff])).toEqual([
      ['ETH', 0n],
      ['EDGE', -parseEther('10')],
    ])
    // The simulated block is the one after the base block, as geth numbers it.
    expect(got.block.number).toBe(blockNumber + 1n)
  })

  it('simulateCalls: a swap (tokens out, ETH in) through Scenarios, with ETH transfers traced', async () => {
    // No DEX on the devnet: Scenarios, holding 5 ETH (a state override, as a pool would), takes 100
    // EDGE from alice under her standing approval and sends back half (pull), then pays her 1 ETH
    // (pay): alice ends 50 EDGE down and 1 ETH up, the ETH leg visible as an ERC-7528 log.
    const { Token: token, Scenarios: scenarios } = env().contracts as Record<string, Address>
    const calls = [
      {
        to: scenarios,
        data: encodeFunctionData({ abi, functionName: 'pull', args: [token, alice, parseEther('100')] }),
      },
      { to: scenarios, data: encodeFunctionData({ abi, functionName: 'pay', args: [alice, parseEther('1')] }) },
    ]
    const stateOverrides = [{ address: scenarios, balance: parseEther('5') }]
    const got = await edge.simulateCalls({
      account: alice,
      blockNumber,
      calls,
      stateOverrides,
      traceTransfers: true,
      traceAssetChanges: true,
    })
    const want = await anvil.simulateCalls({ account: alice, blockNumber, calls, stateOverrides, traceTransfers: true })
    expect(comparable(got.results)).toEqual(comparable(want.results))
    expect(got.results.map((r) => r.status)).toEqual(['success', 'success'])
    const ethLogs = got.results[1]!.logs!.filter((l) => l.address === '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')
    expect(ethLogs).toHaveLength(1)
    expect(got.assetChanges).toEqual(await anvilAssetChanges(anvil, blockNumber, alice, calls, stateOverrides))
    expect(got.assetChanges.map((c) => [c.token.symbol, c.value.diff])).toEqual([
      ['ETH', parseEther('1')],
      ['EDGE', -parseEther('50')],
    ])
  })

  it('simulateCalls: reverting calls fail with the revert data anvil gives', async () => {
    const { Token: token, Scenarios: scenarios } = env().contracts as Record<string, Address>
    const calls = [
      { to: token, data: encodeFunctionData({ abi, functionName: 'transfer', args: [bob, parseEther('1000000000')] }) },
      { to: scenarios, data: encodeFunctionData({ abi, functionName: 'revertWithReason' }) },
    ]
    const got = await edge.simulateCalls({ account: alice, blockNumber, calls })
    const want = await anvil.simulateCalls({ account: alice, blockNumber, calls })
    expect(comparable(got.results)).toEqual(comparable(want.results))
    expect(got.results.map((r) => r.status)).toEqual(['failure', 'failure'])
    expect(got.results[0]!.error?.message).toContain('reverted with the following reason:\ninsufficient balance')
    expect(got.results[1]!.error?.message).toContain('reverted with the following reason:\nscenario reverted')
  })

  it('createAccessList of an ERC-20 transfer equals anvil', async () => {
    const request = {
      account: alice,
      blockNumber,
      to: env().contracts.Token!,
      data: encodeFunctionData({ abi, functionName: 'transfer', args: [bob, 5n] }),
    }
    const got = await edge.createAccessList(request)
    expect(got).toEqual(await anvil.createAccessList(request))
    expect(got.accessList).toHaveLength(1)
  })

  it('simulateBlocks through the service worker HTTP shim equals anvil', async () => {
    const sw = await registerEdgetraceServiceWorker({
      ...serviceWorkerScript(),
      config: { ...configFor(), path: '/rpc-viem' },
    })
    try {
      const shim = createPublicClient({ transport: http(sw.url) })
      const token = env().contracts.Token!
      const blocks = [
        {
          calls: [
            { from: alice, to: token, data: encodeFunctionData({ abi, functionName: 'transfer', args: [bob, 7n] }) },
            { from: alice, to: bob, value: parseEther('2') },
          ],
        },
        {
          calls: [{ from: bob, to: token, data: encodeFunctionData({ abi, functionName: 'balanceOf', args: [bob] }) }],
        },
      ]
      const got = await shim.simulateBlocks({ blockNumber, blocks, traceTransfers: true })
      const want = await anvil.simulateBlocks({ blockNumber, blocks, traceTransfers: true })
      expect(got.map((b) => comparable(b.calls))).toEqual(want.map((b) => comparable(b.calls)))
      expect(got.map((b) => b.number)).toEqual([blockNumber + 1n, blockNumber + 2n])
      expect(got[1]!.parentHash).toBe(got[0]!.hash)
    } finally {
      await sw.unregister()
    }
  })

  it('ethers BrowserProvider reads equal an ethers JsonRpcProvider on anvil', async () => {
    const browser = new BrowserProvider(provider)
    const direct = new JsonRpcProvider(env().anvilUrl, undefined, { staticNetwork: true })
    try {
      const tag = numberToHex(blockNumber)
      const [alice_, carol] = [alice, env().accounts[2]!]
      for (const who of [alice_, carol, env().contracts.Token!, zeroAddress]) {
        expect(await browser.getBalance(who, tag)).toBe(await direct.getBalance(who, tag))
      }
      const { hash, blockNumber: txBlock } = txByLabel('nested token calls (transferFrom, transfer, balanceOf)')
      expect((await browser.getBlock(txBlock, true))!.toJSON()).toEqual(
        (await direct.getBlock(txBlock, true))!.toJSON(),
      )
      expect((await browser.getBlock('latest'))!.toJSON()).toEqual((await direct.getBlock('latest'))!.toJSON())
      // anvil adds blobGasPrice (0x1) to every receipt; geth (MarshalReceipt: only `if tx.Type() ==
      // types.BlobTxType`) and Erigon (only when the transaction has blobs) do not, nor does edgetrace.
      const receipt = (await browser.getTransactionReceipt(hash))!.toJSON()
      const anvilReceipt = (await direct.getTransactionReceipt(hash))!.toJSON()
      expect(anvilReceipt.blobGasPrice).toBe('1')
      expect(receipt).toEqual({ ...anvilReceipt, blobGasPrice: null })
      expect((await browser.getTransaction(hash))!.toJSON()).toEqual((await direct.getTransaction(hash))!.toJSON())
      const call = {
        to: env().contracts.Token!,
        data: encodeFunctionData({ abi, functionName: 'balanceOf', args: [bob] }),
        blockTag: tag,
      }
      expect(await browser.call(call)).toBe(await direct.call(call))
      expect(await browser.getCode(env().contracts.Scenarios!, tag)).toBe(
        await direct.getCode(env().contracts.Scenarios!, tag),
      )
      expect(await browser.getTransactionCount(alice_, tag)).toBe(await direct.getTransactionCount(alice_, tag))
      const filter = { address: env().contracts.Token!, fromBlock: 0, toBlock: Number(blockNumber) }
      const logs = (await browser.getLogs(filter)).map((l) => l.toJSON())
      expect(logs.length).toBeGreaterThan(2)
      expect(logs).toEqual((await direct.getLogs(filter)).map((l) => l.toJSON()))
      expect((await browser.getFeeData()).toJSON()).toEqual((await direct.getFeeData()).toJSON())
      // estimateGas: anvil answers the exact minimum; geth's search (which edgetrace follows) stops
      // within 1.5% above it (estimateGasErrorRatio), so the two differ by design.
      const transfer = {
        from: alice_,
        to: call.to,
        data: encodeFunctionData({ abi, functionName: 'transfer', args: [bob, 1n] }),
      }
      const estimate = await browser.estimateGas(transfer)
      const minimum = await direct.estimateGas(transfer)
      expect(estimate).toBeGreaterThanOrEqual(minimum)
      expect((estimate - minimum) * 1000n).toBeLessThan(estimate * 15n)
    } finally {
      browser.destroy()
      direct.destroy()
    }
  })
})
