import { join } from 'node:path'
import type { Page } from 'playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeDeploy } from '../src/node/devnet/abi.js'
import artifactsJson from '../src/node/devnet/artifacts.json' with { type: 'json' }
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import type { RunningEdgetrace } from '../src/node/startEdgetrace.js'
import { rpcResult, waitForReceipt } from './src/rpc.js'
import { screenshotsDir } from './src/screenshotsDir.js'
import { type ExplorerPage, startExplorerPage } from './src/startExplorerPage.js'

// The explorer's edges as a person meets them (issue 35): the head block's "next" link, the fee
// recipient's row, token amounts in decimals in the call tree and events, the call tree's rows on
// one line each, a trace that cannot be verified (a fresh anvil's block 1) shown beside what did
// verify, hex in the search box that is not a hash, and the search box on other views. In headless
// Chromium against the page the Node server serves; assertions on what the page shows.
const SHOTS = screenshotsDir()

let explorer: ExplorerPage
let devnet: Devnet
let server: RunningEdgetrace
/** A fresh anvil whose first transaction (a token's deployment, with a Transfer event) is in block 1. */
let fresh: AnvilInstance
let freshServer: RunningEdgetrace
let freshDeploy: string
let page: Page
const hashOf = (label: string) => devnet.transactions.find((t) => t.label === label)!.hash
const NESTED = 'nested token calls (transferFrom, transfer, balanceOf)'

beforeAll(async () => {
  explorer = await startExplorerPage()
  ;({ devnet, server, page } = explorer)
  fresh = await startAnvil()
  const [alice] = await rpcResult(fresh.url, 'eth_accounts')
  const token = (artifactsJson as { contracts: Record<string, { bytecode: `0x${string}` }> }).contracts.Token!
  freshDeploy = await rpcResult(fresh.url, 'eth_sendTransaction', [
    { from: alice, data: encodeDeploy(token.bytecode, [1_000_000n * 10n ** 18n]) },
  ])
  expect((await waitForReceipt(fresh.url, freshDeploy)).blockNumber).toBe('0x1')
  freshServer = await explorer.serve({ upstream: fresh.url, hardfork: fresh.hardfork })
}, 180_000)

afterAll(async () => {
  await explorer?.close()
  await fresh?.stop().catch(() => undefined)
})

const text = async (selector: string) => (await page.textContent(selector, { timeout: 60_000 })) ?? ''

async function openTransaction(hash: string, at = server) {
  await page.goto(`${at.url}/#/tx/${hash}`)
  await page.waitForSelector('#calls .call-tree, #trace-failed', { timeout: 60_000 })
}

describe('the block view', () => {
  it('at the head, says it is the latest block instead of linking to a block that does not exist', async () => {
    const head = Number(await rpcResult(devnet.anvil.url, 'eth_blockNumber'))
    await page.goto(`${server.url}/#/block/${head}`)
    await page.waitForSelector('#block .nav', { timeout: 60_000 })
    expect(await page.locator(`#block .nav a[href="#/block/${head + 1}"]`).count()).toBe(0)
    expect(await text('#block .nav')).toContain(`◀ block ${head - 1}`)
    expect(await text('#block .nav')).toContain('the latest block')
    expect(await text('#block .nav')).not.toContain(`block ${head + 1}`)
    // A block before the head links to the next.
    await page.click(`#block .nav a[href="#/block/${head - 1}"]`)
    await page.waitForSelector(`#block .nav a[href="#/block/${head}"]`, { timeout: 60_000 })
    expect(await text('#block .nav')).toContain(`block ${head} ▶`)
  })

  it('says the fee recipient once: its address, not the row’s name again', async () => {
    // A transaction's view names the block's fee recipient "fee recipient" (its state diff row).
    await openTransaction(hashOf(NESTED))
    expect(await text('#state')).toContain('fee recipient 0x')
    const tx = devnet.transactions.find((t) => t.label === NESTED)!
    await page.goto(`${server.url}/#/block/${tx.blockNumber}`)
    await page.waitForSelector('#block dl.kv', { timeout: 60_000 })
    const row = page.locator('#block dl.kv dt:text-is("fee recipient") + dd')
    const { miner } = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', [
      `0x${tx.blockNumber.toString(16)}`,
      false,
    ])
    expect((await row.textContent())?.trim()).toBe(miner)
    expect(await text('#block')).not.toContain('fee recipient fee recipient')
  })
})

describe('token amounts', () => {
  it('in the call tree and the events, in the token’s decimals with its symbol; the base units on hover', async () => {
    await openTransaction(hashOf(NESTED))
    // Drawn again by the contracts' own ABIs (edgetrace_sourceTracer: the Token names its amounts `value`).
    await page.waitForSelector('#calls[data-source="1"]', { timeout: 60_000 })
    const tree = await text('#calls')
    expect(tree).toContain('transferFrom(from: alice, to: Scenarios, value: 100 EDGE)')
    expect(tree).toContain('transfer(to: alice, value: 50 EDGE)')
    // A call that names the token among its arguments: its amount in the token's decimals too.
    expect(tree).toContain('pull(token: Token, from: alice, amount: 100 EDGE)')
    expect(tree).not.toContain('100000000000000000000')
    expect(await text('#summary')).toContain('pull(token: Token, from: alice, amount: 100 EDGE)')
    const hundred = page.locator('#calls .fn .amount', { hasText: '100 EDGE' })
    expect(await hundred.count()).toBe(2)
    expect(await hundred.nth(1).getAttribute('title')).toBe('100000000000000000000 base units')
    const events = page.locator('#events ol.events li')
    expect(await events.count()).toBe(2)
    expect(await events.nth(0).locator('dd .amount').textContent()).toBe('100 EDGE')
    expect(await events.nth(0).locator('dd .amount').getAttribute('title')).toBe('100000000000000000000 base units')
    expect(await events.nth(1).locator('dd .amount').textContent()).toBe('50 EDGE')
    expect(await text('#events')).not.toContain('100000000000000000000')
    // As "What it moved" says them.
    await page.waitForSelector('#preview .preview-summary', { timeout: 60_000 })
    expect(await text('#preview tr.erc20 td.change')).toBe('-50 EDGE')
  })
})

describe('the call tree', () => {
  it('draws every frame on one line: the root row as high as the others, its gas bar beside its call', async () => {
    // Narrow enough that the root's call and arguments do not fit beside the gas bar.
    await page.setViewportSize({ width: 900, height: 900 })
    try {
      await openTransaction(hashOf(NESTED))
      const rows = await page.$$eval('#calls .frame-row', (els) =>
        els.map((el) => {
          const row = el.getBoundingClientRect()
          const kind = el.querySelector('.kind')!.getBoundingClientRect()
          const bar = el.querySelector('.gas .bar')!.getBoundingClientRect()
          return { height: row.height, kindMiddle: kind.top + kind.height / 2, barMiddle: bar.top + bar.height / 2 }
        }),
      )
      expect(rows.length).toBe(4)
      for (const row of rows) {
        expect(row.height).toBeCloseTo(rows[1]!.height, 0)
        expect(Math.abs(row.barMiddle - row.kindMiddle)).toBeLessThan(4)
      }
      // The whole call stays readable on hover where it is cut short.
      const root = page.locator('#calls .frame-row').first().locator('.fn')
      expect(await root.getAttribute('title')).toBe('pull(token: Token, from: alice, amount: 100000000000000000000)')
      await page.locator('#calls').screenshot({ path: join(SHOTS, 'call-tree-narrow.png') })
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 })
    }
  })
})

describe('a transaction whose trace cannot be verified', () => {
  it("on a fresh anvil's block 1: what verified (from, to, value, status, the receipt's events) and the one-line error in its own panel", async () => {
    await openTransaction(freshDeploy, freshServer)
    const failed = await text('#trace-failed')
    expect(failed).toContain(
      "debug_traceTransaction: state does not verify: block 1's parent state (a genesis like anvil's, whose header commits to an empty state) cannot be proven: mine one empty block first",
    )
    const summary = await text('#summary')
    expect(summary).toContain('✔ success')
    expect(summary).toMatch(/block\s*1, position 0/)
    expect(summary).toMatch(/from\s*0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266/)
    expect(summary).toMatch(/to\s*new contract EDGE 0x[0-9a-f]{40}/)
    expect(summary).toMatch(/value\s*0 ETH/)
    expect(await text('.verification')).toMatch(
      /✔ verified against block 1 .*receipt checked against the header's roots/,
    )
    // The receipt's log: the token's mint, its amount once decimals() and symbol() are read at block 1.
    expect(await text('#events')).toContain('Events (1)')
    await page.waitForSelector('#events dd .amount', { timeout: 60_000 })
    expect(await text('#events')).toMatch(/Transfer\s*from \(address\)\s*0x0{40}/)
    expect(await page.locator('#events dd .amount').textContent()).toBe('1,000,000 EDGE')
    expect(await page.locator('#calls').count()).toBe(0)
    await page.screenshot({ path: join(SHOTS, 'trace-unverified.png'), fullPage: true })
  })
})

describe('the search box', () => {
  it('asks about hex that is not a whole hash instead of reading it as a block number', async () => {
    await page.goto(`${server.url}/`)
    await page.waitForSelector('a.demo-tx')
    await page.fill('#search', '0x1234')
    await page.click('#search-form button[type=submit]')
    await page.waitForSelector('#search-question', { timeout: 10_000 })
    expect(page.url()).not.toContain('#/block/')
    expect(await text('#search-question h2')).toBe('0x1234: a block number (4660), or a partial hash?')
    expect(await text('#search-question')).toContain('its whole hash: 0x and 64 hex digits (this has 4)')
    await page.click('#search-as-block')
    await page.waitForSelector('#search-question', { state: 'detached', timeout: 10_000 })
    expect(page.url()).toContain('#/block/4660')
    expect(await page.inputValue('#search')).toBe('4660')
    // A decimal number is a block number, asked nothing.
    await page.fill('#search', '5')
    await page.click('#search-form button[type=submit]')
    await page.waitForSelector('#block', { timeout: 60_000 })
    expect(page.url()).toContain('#/block/5')
  })

  it('holds the current view’s subject, and nothing on views without one', async () => {
    const hash = hashOf(NESTED)
    await openTransaction(hash)
    expect(await page.inputValue('#search')).toBe(hash)
    await page.click('#nav-preview')
    await page.waitForSelector('#preview-form')
    expect(await page.inputValue('#search')).toBe('')
    await page.click('text=Latest block')
    await page.waitForSelector('#block', { timeout: 60_000 })
    expect(await page.inputValue('#search')).toBe('latest')
    await page.click('text=Simulate a call')
    await page.waitForSelector('#call-form')
    expect(await page.inputValue('#search')).toBe('')
    await page.click('header h1 a')
    await page.waitForSelector('a.demo-tx')
    expect(await page.inputValue('#search')).toBe('')
  })
})
