import { join } from 'node:path'
import type { Page } from 'playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import type { RunningEdgetrace } from '../src/node/startEdgetrace.js'
import { screenshotsDir } from './src/screenshotsDir.js'
import { type ExplorerPage, startExplorerPage } from './src/startExplorerPage.js'
// The trace explorer as a person uses it: the page the Node server serves on GET /, in headless
// Chromium, against the embedded devnet — assertions on what the page shows. Then the same page in
// in-browser mode (the daemon in its worker, reading anvil), and again with anvil stopped, from
// IndexedDB. Screenshots of each view go to EDGETRACE_SCREENSHOTS (`npm run screenshots`: docs/screenshots).
const SHOTS = screenshotsDir()

let explorer: ExplorerPage
let devnet: Devnet
let server: RunningEdgetrace
let page: Page
const hashOf = (label: string) => devnet.transactions.find((t) => t.label === label)!.hash

beforeAll(async () => {
  explorer = await startExplorerPage()
  ;({ devnet, server, page } = explorer)
}, 180_000)

afterAll(() => explorer?.close())

const text = async (selector: string) => (await page.textContent(selector, { timeout: 60_000 })) ?? ''
const shot = (name: string, selector?: string) =>
  selector
    ? page.locator(selector).screenshot({ path: join(SHOTS, `${name}.png`) })
    : page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true })

async function openTransaction(label: string) {
  await page.goto(`${server.url}/#/tx/${hashOf(label)}`)
  await page.waitForSelector('#calls .call-tree', { timeout: 60_000 })
}

describe('the trace explorer, served by the edgetrace server', () => {
  it('home lists the devnet demo transactions by name; one click traces one', async () => {
    await page.goto(`${server.url}/`)
    await page.waitForSelector('a.demo-tx')
    const labels = await page.locator('a.demo-tx').allTextContents()
    expect(labels).toEqual(devnet.transactions.map((t) => t.label))
    await shot('home')
    await page.click('text=nested token calls (transferFrom, transfer, balanceOf)')
    await page.waitForSelector('#calls .call-tree', { timeout: 60_000 })
    expect(page.url()).toContain(`#/tx/${hashOf('nested token calls (transferFrom, transfer, balanceOf)')}`)
  })

  it('shows the summary, the verification, the decoded call tree, events and the state diff', async () => {
    await openTransaction('nested token calls (transferFrom, transfer, balanceOf)')
    const summary = await text('#summary')
    expect(summary).toContain('✔ success')
    expect(summary).toMatch(/block\s*10, position 0/)
    expect(summary).toContain('pull(token: Token, from: alice, amount: 100 EDGE)')
    expect(summary).toMatch(/gas used\s*65,883 of/)
    expect(summary).toMatch(/fee\s*0\.0000\d+ ETH \([\d,]+ wei at [\d.]+ gwei\)/)
    const verification = await text('.verification')
    expect(verification).toMatch(/✔ verified against block 9 \(state root 0x[0-9a-f]{8}…[0-9a-f]{6}\)/)
    expect(verification).toMatch(/\d+ proofs checked \(\d+ accounts, \d+ storage slots, \d+ code hashes\)/)
    expect(verification).toMatch(/\d+ upstream round trips/)
    // Drawn again by the contracts' own ABIs (edgetrace_sourceTracer: the Token names its amounts `value`).
    await page.waitForSelector('#calls[data-source="1"]', { timeout: 60_000 })
    const tree = await text('#calls')
    expect(tree).toContain('4 frames')
    expect(tree).toContain('transferFrom(from: alice, to: Scenarios, value: 100 EDGE)')
    expect(tree).toContain('transfer(to: alice, value: 50 EDGE)')
    expect(tree).toContain('balanceOf(owner: Scenarios)')
    expect(tree).toMatch(/STATICCALL\s*Token/)
    expect(await page.locator('#flame .flame-box').count()).toBe(4)
    const events = await text('#events')
    expect(events).toContain('Events (2)')
    expect(events).toMatch(/Transfer\s*from \(address\)\s*0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266 \(alice\)/)
    // A state-diff row: alice's nonce, before → after.
    const nonceRow = page.locator('#state tr.change', { hasText: 'nonce' })
    expect(await nonceRow.count()).toBe(1)
    const [, before, after] = await nonceRow.locator('td').allTextContents()
    expect(Number(after)).toBe(Number(before) + 1)
    expect(await text('#state')).toContain('Token 0x5fbdb2315678afecb367f032d93f642f64180aa3')
    // What it moved, as a preview on the state before it: Scenarios pulls 100 EDGE and gives 50 back.
    await page.waitForSelector('#preview .preview-summary', { timeout: 60_000 })
    expect(await text('#preview tr.erc20 td.change')).toBe('-50 EDGE')
    expect(await text('#preview .computed-on')).toContain(
      "on its parent's state (before the block's first transaction)",
    )
    await shot('transaction')
  })

  it('expands a collapsed call tree and reads a revert reason', async () => {
    await openTransaction('recursion 5 deep')
    const visible = () => page.locator('#calls .frame-row:visible').count()
    const shown = await visible()
    await page.click('#calls button:has-text("expand all")')
    const expanded = await visible()
    expect(expanded).toBeGreaterThan(shown)
    expect(await text('#calls')).toContain('recurse(depth: 0)')
    await shot('call-tree', '#calls')

    await openTransaction('revert with Error(string)')
    expect(await text('#summary')).toContain('✖ reverted: scenario reverted')
    expect(await text('#calls')).toContain('✖ execution reverted: scenario reverted')
    await openTransaction('panic: division by zero')
    expect(await text('#summary')).toContain('✖ reverted: division or modulo by zero')
    await openTransaction('revert with a custom error')
    expect(await text('#summary')).toMatch(
      /reverted: Custom\(code: 7, who: (alice|0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266)\)/,
    )
  })

  it('steps through opcodes to an SSTORE, a page at a time', async () => {
    await openTransaction('storage writes')
    await page.waitForSelector('#stepper .stepper table.steps', { timeout: 60_000 })
    const status = await text('#stepper .step-status')
    const total = Number(/of ([\d,]+)/.exec(status)![1]!.replace(/,/g, ''))
    expect(total).toBeGreaterThan(500)
    // The page holds 50 steps, not the trace.
    expect(await page.locator('#stepper table.steps tbody tr').count()).toBe(50)
    await page.click('#stepper button:has-text("step ▶")')
    await page.waitForSelector('#stepper .step-detail h4:has-text("step 1:")')
    await page.click('#stepper button:has-text("SSTORE")')
    await page.waitForSelector('#stepper .step-detail h4:has-text("SSTORE")', { timeout: 30_000 })
    const detail = await text('#stepper .step-detail')
    expect(detail).toMatch(/step \d+: SSTORE at pc \d+, depth 1/)
    expect(await page.locator('#stepper .step-detail table.storage tr').count()).toBeGreaterThanOrEqual(1)
    expect(await page.locator('#stepper .step-detail ol.stack li').count()).toBeGreaterThanOrEqual(2)
    expect(await page.locator('#stepper tr.current td.op').textContent()).toBe('SSTORE')
    await shot('stepper', '#stepper')
    await shot('state-diff', '#state')
  })

  it('previews what an ERC-20 transfer would do, before it is signed', async () => {
    await page.goto(`${server.url}/#/call`)
    await page.waitForSelector('#call-form')
    expect(await page.inputValue('#call-fn')).toBe('transfer(address,uint256)')
    await page.fill('#call-args', `${devnet.accounts[1]}, 5 ether`)
    await page.click('#call-form button[type=submit]')
    await page.waitForSelector('#call-results #preview', { timeout: 60_000 })
    expect(await text('#call-results #preview')).toContain('you send 5 EDGE to bob (ERC-20)')
    expect(await text('#call-results #summary')).toContain('✔ would succeed')
    await page.waitForSelector('#call-results #calls[data-source="1"]', { timeout: 60_000 })
    expect(await text('#call-results #calls')).toContain('transfer(to: bob, value: 5 EDGE)')
    await shot('wallet-preview')

    // One the signer cannot afford: the preview says it would revert, and moves nothing.
    await page.fill('#call-from', devnet.accounts[2]!)
    await page.click('#call-form button[type=submit]')
    await page.waitForSelector('#call-results .status.failed', { timeout: 60_000 })
    expect(await text('#call-results #summary')).toContain('✖ would revert')
    expect(await text('#call-results #preview')).toContain('Moves no ether or tokens')
  })

  it('shows a block: its transactions with status and gas, each linked to its trace', async () => {
    const several = devnet.transactions.filter((t) => t.label.startsWith('block of several'))
    await page.goto(`${server.url}/#/block/${several[0]!.blockNumber}`)
    await page.waitForSelector('table.block-txs', { timeout: 60_000 })
    const rows = page.locator('table.block-txs tbody tr')
    expect(await rows.count()).toBe(several.length)
    expect(await text('table.block-txs')).toContain('✔ success')
    await shot('block')
    await rows.nth(1).locator('a.tx-link').click()
    await page.waitForSelector('#calls .call-tree', { timeout: 60_000 })
    expect(page.url()).toContain(several[1]!.hash)
  })
})

describe('the same page in in-browser mode', () => {
  it('traces in the page’s worker against anvil, then with anvil stopped from IndexedDB', async () => {
    const label = 'nested token calls (transferFrom, transfer, balanceOf)'
    await page.goto(`${server.url}/`)
    await page.waitForSelector('a.demo-tx')
    await page.selectOption('#mode', 'browser')
    expect(await page.inputValue('#url')).toBe(devnet.anvil.url)
    expect(await page.inputValue('#hardfork')).toBe('prague')
    await page.click('#conn-form button[type=submit]')
    await page.goto(`${server.url}/#/tx/${hashOf(label)}`)
    await page.waitForSelector('#calls .call-tree', { timeout: 90_000 })
    expect(await text('#conn-status')).toContain(`edgetrace in this browser, reading ${devnet.anvil.url}`)
    await page.waitForSelector('#calls[data-source="1"]', { timeout: 60_000 })
    expect(await text('#calls')).toContain('transferFrom(from: alice, to: Scenarios, value: 100 EDGE)')
    expect(await text('.verification')).toMatch(/✔ verified against block 9/)
    expect(await text('.verification')).toContain('answered by edgetrace in this browser')
    await page.waitForSelector('#stepper table.steps', { timeout: 60_000 })

    // anvil stops: the page reloads (its mode remembered) and answers from its IndexedDB cache.
    await devnet.stop()
    await page.reload()
    await page.waitForSelector('#calls .call-tree', { timeout: 90_000 }).catch(async (err: Error) => {
      throw new Error(`${err.message}; the page shows: ${await page.textContent('#content')}`)
    })
    expect(await text('#conn-status')).toContain('started offline, from its IndexedDB cache')
    await page.waitForSelector('#calls[data-source="1"]', { timeout: 60_000 })
    expect(await text('#calls')).toContain('transferFrom(from: alice, to: Scenarios, value: 100 EDGE)')
    expect(await text('#summary')).toContain('✔ success')
    expect(await text('.verification')).toContain(' 0 upstream round trips')
    expect(await text('.verification')).toContain('no new proofs: all state from the cache')
    await shot('in-browser-offline')
  }, 240_000)
})
