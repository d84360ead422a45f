import { join } from 'node:path'
import type { Page } from 'playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { units } from '../demo/format.js'
import { eip2612PermitTypes } from '../demo/preview/eip2612PermitTypes.js'
import { encodeCall } from '../src/node/devnet/abi.js'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import type { RunningEdgetrace } from '../src/node/startEdgetrace.js'
import { quantity } from '../src/utils/hex.js'
import { compileSolidity } from './src/compileSolidity.js'
import { previewScenarioContracts } from './src/previewScenarioContracts.js'
import { deploy, rpcResult, waitForReceipt } from './src/rpc.js'
import { screenshotsDir } from './src/screenshotsDir.js'
import { type ExplorerPage, startExplorerPage } from './src/startExplorerPage.js'

// The explorer's "preview" view as a person uses it: the page the Node server serves, in headless
// Chromium, against the embedded devnet. What is pasted goes through the page's connection to
// edgetrace_previewTransactions / edgetrace_previewTypedData; the assertions are on what the page
// shows. Then a mined transaction's "What it moved", previewed on the state just before it.
// Screenshots go to EDGETRACE_SCREENSHOTS (`npm run screenshots`: docs/screenshots).
const SHOTS = screenshotsDir()

/** An EIP-2612 token of our own (nonces, DOMAIN_SEPARATOR, allowance) for the typed-data case. */
const PERMIT_TOKEN = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;
contract PermitToken {
    string public constant name = "Permit Token";
    string public constant symbol = "PMT";
    uint8 public constant decimals = 18;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => uint256) public nonces;
    constructor() { balanceOf[msg.sender] = 1000e18; }
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

let explorer: ExplorerPage
let devnet: Devnet
let server: RunningEdgetrace
let page: Page
let alice: `0x${string}`
let bob: `0x${string}`
let token: string
let permitToken: string
const ETHER = 10n ** 18n

beforeAll(async () => {
  explorer = await startExplorerPage({
    beforeServer: async (devnet) => {
      ;[alice, bob] = devnet.accounts.map((a) => a.toLowerCase()) as [`0x${string}`, `0x${string}`]
      token = devnet.contracts.Token!.toLowerCase()
      permitToken = (
        await deploy(devnet.anvil.url, compileSolidity('PermitToken.sol', PERMIT_TOKEN).PermitToken!.creation)
      ).toLowerCase()
    },
  })
  ;({ devnet, server, page } = explorer)
}, 180_000)

afterAll(() => explorer?.close())

const text = async (selector: string) => (await page.textContent(selector, { timeout: 60_000 })) ?? ''
const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true })

/** Pastes `value` (JSON unless a string) into the preview page and submits it. */
async function preview(value: unknown) {
  await page.fill('#preview-input', typeof value === 'string' ? value : JSON.stringify(value, null, 2))
  await page.click('#preview-form button[type=submit]')
}
async function previewed(value: unknown) {
  await preview(value)
  await page.waitForSelector('#preview-results #preview-summary', { timeout: 60_000 })
  return text('#preview-summary')
}

describe('the explorer’s preview view', () => {
  it('is linked from the header and the home page; a pasted token transfer shows the amount with decimals and symbol (base units on hover), gas apart, the block and trust; the full trace opens below', async () => {
    await page.goto(`${server.url}/`)
    await page.waitForSelector('#home-preview')
    await page.click('#nav-preview')
    await page.waitForSelector('#preview-form')
    expect(page.url()).toContain('#/preview')
    const head = BigInt(await rpcResult(devnet.anvil.url, 'eth_blockNumber'))
    const summary = await previewed({
      from: alice,
      to: token,
      data: encodeCall('transfer(address,uint256)', [bob as `0x${string}`, 5n * ETHER + ETHER / 4n]),
    })
    expect(summary).toContain('✔ the call would succeed')
    expect(summary).toMatch(/✔ succeeds · [\d,]+ gas · transfer\(to: bob, amount: 5\.25 EDGE\) on Token/)
    // ERC-20: the decimals applied, the symbol and name; the raw base units on hover.
    const row = page.locator('#preview-summary table.asset-changes tr.erc20')
    expect(await row.locator('td').first().textContent()).toBe('EDGE (Edge Token) ERC-20')
    expect(await row.locator('td.change').textContent()).toBe('-5.25 EDGE')
    expect(await row.locator('td.change .amount').getAttribute('title')).toBe('-5250000000000000000 base units')
    // Ether: nothing moved but the gas, said apart.
    expect(await text('#preview-summary tr.native')).toMatch(/^ETH0 ETHand [\d.]+ ETH for gas \(paid apart\)/)
    expect(summary).toContain('No approval granted or changed.')
    expect(summary).toMatch(
      new RegExp(`Computed on block ${head} \\(0x[0-9a-f]{8}…[0-9a-f]{6}\\), on the state after it`),
    )
    expect(summary).toContain("trust mode: upstream (blocks are the upstream node's word)")
    // The full trace, below: opened, the call tree of the call (callTracer on the same block).
    expect(await page.locator('#preview-trace .call-tree').count()).toBe(0)
    await page.click('#preview-trace summary')
    await page.waitForSelector('#preview-trace .call-tree', { timeout: 60_000 })
    expect(await text('#preview-trace')).toContain('transfer(to: bob, amount: 5.25 EDGE)')
    expect(await page.locator('#preview-trace .fn .amount').getAttribute('title')).toBe(
      '5250000000000000000 base units',
    )
    expect(await text('#preview-trace')).toMatch(/CALL\s*Token/)
    await shot('preview')
  })

  it('an unlimited approval: the approval before → after as "unlimited", its signal as a sentence', async () => {
    await page.goto(`${server.url}/#/preview`)
    await page.waitForSelector('#preview-form')
    const summary = await previewed({
      from: alice,
      to: token,
      data: encodeCall('approve(address,uint256)', [bob as `0x${string}`, 2n ** 256n - 1n]),
    })
    const approval = page.locator('#preview-summary table.approvals tr.approval')
    expect(await approval.count()).toBe(1)
    const [what, spender, change] = await approval.locator('td').allTextContents()
    expect(what).toBe('EDGE (ERC-20)')
    expect(spender).toBe('bob')
    expect(change).toMatch(/^[\d.,]+ EDGE → unlimited EDGE$/)
    const unlimited = page.locator('#preview-summary ul.signals li.warning[data-kind=unlimitedApproval]')
    expect(await unlimited.textContent()).toBe(
      '⚠ Unlimited approval: bob may take all your EDGE, now and whatever you hold later.',
    )
    // bob is an account without code: said too.
    expect(summary).toContain(
      'The spender bob has no code (a plain account): whoever holds its key can move what you allow, no contract limits it.',
    )
  })

  it('typed data (an EIP-2612 permit): the spender, the amount with decimals and symbol, the deadline against the block, the worst case', async () => {
    const typedData = {
      types: eip2612PermitTypes(),
      primaryType: 'Permit',
      domain: { name: 'Permit Token', version: '1', chainId: 31337, verifyingContract: permitToken },
      message: { owner: alice, spender: bob, value: (25n * ETHER).toString(), nonce: '0', deadline: '4102444800' },
    }
    await page.goto(`${server.url}/#/preview`)
    await page.waitForSelector('#preview-form')
    // eth_signTypedData_v4's params, the typed data as JSON text as dapps send it.
    const summary = await previewed([alice, JSON.stringify(typedData)])
    expect(await text('#preview-summary h2')).toBe('What this signature would allow')
    expect(summary).toMatch(/Signing an EIP-2612 permit lets bob \(spender 0x[0-9a-f]{40}\) take from you:/)
    expect(summary).toContain(bob)
    expect(await text('#preview-summary .grant-amount')).toBe('25 PMT')
    expect(summary).toContain('your balance: 1,000 PMT — at risk now: 25 PMT')
    expect(summary).toContain('nonce 0 (current: usable)')
    expect(summary).toContain('deadline: 2100-01-01 00:00:00 UTC — not passed at the block’s time')
    expect(summary).toContain(
      'worst case, simulated: the spender takes all it can — you would lose 25 PMT, leaving 975 PMT',
    )
    expect(summary).toContain('✔ usable as it is')
    await shot('preview-typed-data')

    // An expired deadline and another owner: said as problems.
    const stale = await previewed({
      account: bob,
      typedData: { ...typedData, message: { ...typedData.message, deadline: '1000' } },
    })
    expect(stale).toContain('✖ this signature cannot be used:')
    expect(stale).toMatch(/the deadline \S+ is past the block's time/)
    expect(stale).toMatch(/is not the signing account/)

    // Typed data it does not know: shown decoded, no claims.
    const unknown = await previewed({
      account: alice,
      typedData: {
        types: { EIP712Domain: [{ name: 'name', type: 'string' }], Mail: [{ name: 'contents', type: 'string' }] },
        primaryType: 'Mail',
        domain: { name: 'Ether Mail' },
        message: { contents: 'Hello, Bob!' },
      },
    })
    expect(await text('#preview-summary h2')).toBe('Typed data')
    expect(unknown).toContain(
      'Typed data of type Mail: not a permit edgetrace knows, so it says nothing of what it allows.',
    )
    expect(unknown).toContain('"contents": "Hello, Bob!"')
  })

  it('a list of calls (wallet_sendCalls): each call with its status and gas, a revert decoded — Error(string) and a custom error', async () => {
    await page.goto(`${server.url}/#/preview`)
    await page.waitForSelector('#preview-form')
    const scenarios = devnet.contracts.Scenarios!.toLowerCase() as `0x${string}`
    const summary = await previewed({
      version: '2.0.0',
      from: alice,
      calls: [
        { to: scenarios, data: encodeCall('revertWithReason()') },
        { to: scenarios, data: encodeCall('revertWithCustom(uint256)', [7]) },
        { to: bob, value: quantity(ETHER / 2n) },
      ],
    })
    expect(summary).toContain('✖ 2 of 3 calls would fail')
    const calls = await page.locator('#preview-summary ol.preview-calls li').allTextContents()
    expect(calls[0]).toMatch(/^✖ fails: scenario reverted · [\d,]+ gas · revertWithReason\(\) on Scenarios$/)
    expect(calls[1]).toMatch(
      /^✖ fails: Custom\(code: 7, who: 0x[0-9a-f]{40}\) · [\d,]+ gas · revertWithCustom\(.*\) on Scenarios$/,
    )
    expect(calls[2]).toMatch(/^✔ succeeds · 21,000 gas · \(no calldata\) on bob with 0\.5 ETH$/)
    expect(await text('#preview-summary tr.native td.change')).toBe('-0.5 ETH')
  })

  it('NFTs: an ERC-721 sent and one minted, by token id; an operator approved for all, no → yes', async () => {
    const nft = (
      await deploy(devnet.anvil.url, previewScenarioContracts().Nft721!.creation)
    ).toLowerCase() as `0x${string}`
    await waitForReceipt(
      devnet.anvil.url,
      await rpcResult(devnet.anvil.url, 'eth_sendTransaction', [
        { from: alice, to: nft, data: encodeCall('mint(address)', [alice as `0x${string}`]) },
      ]),
    )
    await page.goto(`${server.url}/#/preview`)
    await page.waitForSelector('#preview-form')
    await previewed({
      from: alice,
      calls: [
        { to: nft, data: encodeCall('transferFrom(address,address,uint256)', [alice, bob, 1n]) },
        { to: nft, data: encodeCall('mint(address)', [alice as `0x${string}`]) },
        { to: nft, data: encodeCall('setApprovalForAll(address,bool)', [bob, true]) },
      ],
    })
    const rows = await page.locator('#preview-summary table.asset-changes tr.erc721').allTextContents()
    expect(rows).toEqual([
      'KITTY (Preview Kitties) ERC-721− NFT #1 (sent)not yours after',
      'KITTY (Preview Kitties) ERC-721+ NFT #2 (received)yours after',
    ])
    const approval = await page.locator('#preview-summary table.approvals tr.approval td').allTextContents()
    expect(approval).toEqual(['all your KITTY (ERC-721)', 'bob', 'no → yes'])
  })

  it('answered by edgetrace in this browser: the same preview through the page’s worker', async () => {
    await page.goto(`${server.url}/#/preview`)
    await page.waitForSelector('#preview-form')
    await page.selectOption('#mode', 'browser')
    await page.click('#conn-form button[type=submit]')
    const summary = await previewed({
      from: alice,
      to: token,
      data: encodeCall('transfer(address,uint256)', [bob as `0x${string}`, 3n * ETHER]),
    })
    expect(await text('#conn-status')).toContain('edgetrace in this browser')
    expect(summary).toContain('✔ the call would succeed')
    expect(await text('#preview-summary tr.erc20 td.change')).toBe('-3 EDGE')
    await page.click('#preview-trace summary')
    await page.waitForSelector('#preview-trace .call-tree', { timeout: 60_000 })
    expect(await text('#preview-trace')).toContain('transfer(to: bob, amount: 3 EDGE)')
    // Back to the server for what follows.
    await page.selectOption('#mode', 'server')
    await page.click('#conn-form button[type=submit]')
  }, 120_000)

  it('bad input: a readable error on the page, never a blank page', async () => {
    await page.goto(`${server.url}/#/preview`)
    await page.waitForSelector('#preview-form')
    await preview('{"from": "0xf39f", "to": ')
    expect(await text('#preview-error')).toMatch(/^Cannot preview this: not JSON: /)
    await preview('[]')
    expect(await text('#preview-error')).toBe(
      'Cannot preview this: an empty list: paste a transaction, a list of calls, or typed data',
    )
    // What the daemon refuses: its -32602 message, naming the argument.
    await preview({ from: alice, to: '0x1234' })
    await page.waitForSelector('#preview-results p.error', { timeout: 60_000 })
    expect(await text('#preview-results p.error')).toMatch(
      /^edgetrace_previewTransactions refused it: invalid argument 0: calls\[0\]: field "to"/,
    )
    expect(await text('#preview-error')).toBe('')
    await shot('preview-error')
  })
})

describe('a mined transaction’s “What it moved”, computed as the preview is', () => {
  it('a transaction second in its block: previewed on the state before it — its token and ether as mined, the gas it paid', async () => {
    const tx = devnet.transactions.find((t) => t.label === 'block of several: token transfer')!
    const receipt = await rpcResult(devnet.anvil.url, 'eth_getTransactionReceipt', [tx.hash])
    expect(Number(receipt.transactionIndex)).toBe(1)
    const fee = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice)
    const before = BigInt(
      await rpcResult(devnet.anvil.url, 'eth_getBalance', [receipt.from, quantity(tx.blockNumber - 1)]),
    )
    const first = await rpcResult(devnet.anvil.url, 'eth_getTransactionReceipt', [
      devnet.transactions.find((t) => t.label === 'block of several: ether transfer')!.hash,
    ])
    // bob's ether when this transaction started: after his ether transfer (0.1 ETH and its fee) earlier in the block.
    const atStart = before - ETHER / 10n - BigInt(first.gasUsed) * BigInt(first.effectiveGasPrice)

    await page.goto(`${server.url}/#/tx/${tx.hash}`)
    await page.waitForSelector('#preview .preview-summary', { timeout: 60_000 })
    const panel = await text('#preview')
    expect(panel).toContain('What it moved')
    expect(await text('#preview tr.erc20 td.change')).toBe('-1 EDGE')
    expect(await text('#preview tr.native')).toContain(`and ${units(fee, 18)} ETH for gas (paid apart)`)
    expect(await text('#preview tr.native')).toContain(
      `${units(atStart, 18)} ETH → ${units(atStart, 18)} ETH before gas`,
    )
    expect(panel).toContain(`Computed on block ${tx.blockNumber}`)
    expect(panel).toContain('on its state after its first 1 transaction')
    await page.locator('#preview').screenshot({ path: join(SHOTS, 'what-it-moved.png') })
  })
})
