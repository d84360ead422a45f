import { join } from 'node:path'
import type { Page } from 'playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningEdgetrace } from '../src/node/startEdgetrace.js'
import { screenshotsDir } from './src/screenshotsDir.js'
import { type ExplorerPage, startExplorerPage } from './src/startExplorerPage.js'

// Issue 38, the trace views at the source level, as a person sees them: the explorer page in
// Chromium on the embedded devnet, its server with the devnet's sources (as `npm start`): the state
// diff by storage variable, calls, events and errors by the contract's own ABI, a revert's Solidity
// line, the flame graph by Solidity function. Screenshots go to EDGETRACE_SCREENSHOTS.
const SHOTS = screenshotsDir()
const TRANSFER = 'token transfer (legacy, type 0)'
const ALICE = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const BOB = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

let explorer: ExplorerPage
let server: RunningEdgetrace
let page: Page
const hashOf = (label: string) => explorer.devnet.transactions.find((t) => t.label === label)!.hash

beforeAll(async () => {
  explorer = await startExplorerPage()
  ;({ server, page } = explorer)
}, 180_000)

afterAll(() => explorer?.close())

/** Opens a transaction and waits for the views to be drawn again at the source level. */
async function open(label: string) {
  await page.goto(`${server.url}/#/tx/${hashOf(label)}`)
  await page.waitForSelector('#state[data-source="1"]', { timeout: 60_000 })
}

describe('a devnet Token transfer at the source level', () => {
  it('shows the state diff by variable: balanceOf[sender] and balanceOf[recipient], before → after, the raw slot on hover', async () => {
    await open(TRANSFER)
    const rows = await page.$$eval('#state tr.named', (trs) =>
      trs.map((tr) => ({
        cells: Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? ''),
        hover: tr.querySelector('code.variable')?.getAttribute('title') ?? '',
      })),
    )
    // The Token's balances in its decimals with its symbol, as "What it moved" says them (base units on hover).
    expect(rows.map((r) => r.cells)).toEqual([
      [`balanceOf[${BOB}] (bob)`, '0 EDGE', '1,000 EDGE', '+1,000 EDGE'],
      [`balanceOf[${ALICE}] (alice)`, '1,000,000 EDGE', '999,000 EDGE', '-1,000 EDGE'],
    ])
    expect(await page.locator('#state tr.named').first().locator('td:nth-child(3) .amount').getAttribute('title')).toBe(
      '1000000000000000000000 base units',
    )
    expect(rows[1]!.hover).toMatch(
      /^slot 0xa3c1274aadd82e4d12c8004c33fb244ca686dad4fcc8957fc5668588c11d9502: 0x0+d3c21bcecceda1000000 → 0x/,
    )
    // No raw slot rows left for the Token: every slot it changed is named.
    expect(
      await page.$$eval('#state tr.change:not(.named) td:first-child', (tds) => tds.map((t) => t.textContent)),
    ).not.toContain(expect.stringMatching(/^slot /))
    await page.locator('#state').screenshot({ path: join(SHOTS, 'source-state-diff.png') })
  })

  it('names the stepper’s storage by variable at an SSTORE (the raw slot and word on hover)', async () => {
    await page.waitForSelector('#stepper .stepper[data-storage-names="1"]', { timeout: 60_000 })
    await page.click('#stepper button:has-text("SSTORE")')
    await page.waitForSelector('#stepper .step-detail h4:has-text("SSTORE")', { timeout: 30_000 })
    await page.waitForSelector('#stepper .step-detail table.storage tr.named', { timeout: 30_000 })
    const rows = await page.$$eval('#stepper .step-detail table.storage tr', (trs) =>
      trs.map((tr) => ({
        named: tr.classList.contains('named'),
        cells: Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? ''),
        hover: tr.querySelector('code.variable')?.getAttribute('title') ?? '',
      })),
    )
    // The Token's slots the transfer touched so far, each by its variable: no raw slot left.
    expect(rows.every((r) => r.named)).toBe(true)
    const alice = rows.find((r) => r.cells[0] === `balanceOf[${ALICE}]`)
    expect(alice, JSON.stringify(rows)).toBeDefined()
    expect(alice!.cells[1]).toMatch(/^\d+$/) // a uint256, in decimal
    expect(alice!.hover).toMatch(
      /^slot 0xa3c1274aadd82e4d12c8004c33fb244ca686dad4fcc8957fc5668588c11d9502: 0x[0-9a-f]{64}$/,
    )
    await page.locator('#stepper .step-detail').screenshot({ path: join(SHOTS, 'source-stepper-storage.png') })
  })

  it('shows the call and the Transfer event decoded by the Token’s own ABI', async () => {
    const fn = await page.$eval('#calls .fn.by-abi', (e) => ({ text: e.textContent, abi: e.getAttribute('data-abi') }))
    expect(fn.text).toMatch(/^transfer\(to: .*, value: /)
    expect(fn.abi).toBe('Token')
    const event = await page.$eval('#events .event.by-abi', (e) => e.textContent ?? '')
    expect(event).toMatch(/^Transfer/)
    expect(event).toContain(`from (address)${ALICE}`)
    expect(await page.getAttribute('#events .event.by-abi b', 'title')).toBe('Transfer(address,address,uint256)')
    await page.locator('#calls').screenshot({ path: join(SHOTS, 'source-call.png') })
    await page.locator('#events').screenshot({ path: join(SHOTS, 'source-events.png') })
  })

  it('draws the flame graph by Solidity function on the toggle (internal functions included), by frames before it', async () => {
    const boxes = () => page.$$eval('#flame .flame-box', (bs) => bs.map((b) => b.getAttribute('title') ?? ''))
    expect((await boxes()).some((t) => t.startsWith('CALL '))).toBe(true)
    await page.click('#flame button.flame-functions')
    await page.waitForSelector('#flame .flame-host[data-view="functions"]')
    const titles = await boxes()
    expect(titles[0]).toMatch(/^Token\.transfer: [\d,]+ gas$/)
    expect(titles.some((t) => /^Token\.sol:\d+: /.test(t))).toBe(true)
    const labels = await page.$$eval('#flame .flame-box', (bs) => bs.map((b) => b.textContent))
    expect(labels).toEqual(expect.arrayContaining(['Token.transfer', 'transfer', '_move']))
    await page.locator('#flame').screenshot({ path: join(SHOTS, 'source-flame-functions.png') })
    await page.click('#flame button.flame-frames')
    expect((await boxes()).some((t) => t.startsWith('CALL '))).toBe(true)
  })
})

it('nests the called contracts’ functions under the function that called them (a contract calling the Token)', async () => {
  await open('nested token calls (transferFrom, transfer, balanceOf)')
  await page.click('#flame button.flame-functions')
  const boxes = await page.$$eval('#flame .flame-box', (bs) =>
    bs.map((b) => ({ label: b.textContent ?? '', top: Number.parseInt((b as HTMLElement).style.top, 10) })),
  )
  const top = (label: string) => boxes.find((b) => b.label === label)?.top
  expect(top('Scenarios.pull')).toBe(0)
  expect(top('pull')).toBe(22)
  expect(top('Token.transferFrom')).toBe(44)
  expect(top('Token.transfer')).toBe(44)
  await page.locator('#flame').screenshot({ path: join(SHOTS, 'source-flame-nested.png') })
})

describe('reverts at the source level', () => {
  it('a custom error: decoded by the contract’s ABI, with the line it reverted at; the link takes the source pane there', async () => {
    await open('revert with a custom error')
    const row = await page.$eval('#calls .frame-row.failed', (e) => ({
      error: e.querySelector('.error')?.textContent ?? '',
      line: e.querySelector('.revert-line')?.textContent ?? '',
    }))
    expect(row.error).toBe('✖ execution reverted: Custom(code: 7, who: alice)')
    expect(row.line).toBe(' at Scenarios.sol:127')
    // The summary says it too.
    await page.waitForSelector('#summary p.status .revert-line')
    expect(await page.textContent('#summary p.status')).toBe(
      `✖ reverted: Custom(code: 7, who: ${ALICE}) at Scenarios.sol:127`,
    )
    await page.waitForSelector('#stepper .source-pane[data-step]', { timeout: 60_000 })
    await page.click('#calls .revert-line')
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLElement>('#stepper .source-pane .source-line.current-line')?.dataset.line === '127',
      undefined,
      { timeout: 30_000 },
    )
    const text = await page.textContent('#stepper .source-pane .source-line.current-line code')
    expect(text).toContain('revert Custom(code, msg.sender);')
    // Wide enough for the call and the error whole (the call tree cuts them with … to fit the page's
    // 78rem): the page let wider for the shot, then as it was.
    await page.setViewportSize({ width: 1800, height: 900 })
    await page.evaluate(() => document.querySelector('main')!.style.setProperty('max-width', 'none'))
    await page.waitForFunction(() => {
      const cut = (e: Element | null) => e !== null && e.scrollWidth > e.clientWidth
      return (
        !cut(document.querySelector('#calls .frame-row .fn')) &&
        !cut(document.querySelector('#calls .frame-row .error'))
      )
    })
    await page.locator('#calls').screenshot({ path: join(SHOTS, 'source-revert.png') })
    await page.evaluate(() => document.querySelector('main')!.style.removeProperty('max-width'))
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  it('Error(string): its message and line', async () => {
    await open('revert with Error(string)')
    expect(await page.textContent('#calls .frame-row.failed .error')).toBe('✖ execution reverted: scenario reverted')
    expect(await page.textContent('#calls .frame-row.failed .revert-line')).toBe(' at Scenarios.sol:123')
  })

  it('a child frame that reverted (caught by its caller): its line, and the link takes the source pane to its REVERT', async () => {
    await open('log in a child frame that reverts')
    const row = page.locator('#calls .frame-row.failed')
    expect(await row.locator('.error').textContent()).toBe('✖ execution reverted: reverted after logging')
    expect(await row.locator('.revert-line').textContent()).toBe(' at Scenarios.sol:119')
    await page.waitForSelector('#stepper .source-pane[data-step]', { timeout: 60_000 })
    await row.locator('.revert-line').click()
    // The REVERT is the optimizer's shared revert code: the pane shows the statement that jumped there, dashed.
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLElement>(
          '#stepper .source-pane .source-line.current-line, #stepper .source-pane .source-line.near-line',
        )?.dataset.line === '119',
      undefined,
      { timeout: 30_000 },
    )
    const stack = await page.$$eval('#stepper .source-pane ol.call-stack li .fn', (es) => es.map((e) => e.textContent))
    expect(stack).toEqual(['Scenarios.logThenRevert', 'Scenarios.emitAndRevert'])
  })
})

describe('without sources', () => {
  it('keeps raw slots, the selector table’s decoding and the flame graph by frames (no toggle); the source trace is not asked', async () => {
    const plain = await explorer.serve({
      upstream: explorer.devnet.anvil.url,
      hardfork: explorer.devnet.anvil.hardfork,
    })
    // What the page asks the server: its explorer.json says the server's source tracer knows nothing.
    const asked: string[] = []
    const listen = (req: import('playwright').Request) => {
      if (req.method() === 'POST' && req.url().startsWith(plain.url)) asked.push(req.postData() ?? '')
    }
    page.on('request', listen)
    await page.goto(`${plain.url}/#/tx/${hashOf(TRANSFER)}`)
    await page.waitForSelector('#state[data-source="0"]', { timeout: 60_000 })
    // The step index is asked after the views are drawn: once it is, the page asked all it will.
    await page.waitForSelector('#stepper .step-controls', { timeout: 60_000 })
    page.off('request', listen)
    expect(asked.some((body) => body.includes('debug_traceTransaction'))).toBe(true)
    expect(asked.filter((body) => body.includes('edgetrace_sourceTracer'))).toEqual([])
    expect(await page.locator('#state tr.named').count()).toBe(0)
    const slots = await page.$$eval('#state tr.change td:first-child', (tds) =>
      tds.map((t) => t.textContent ?? '').filter((t) => t.startsWith('slot ')),
    )
    expect(slots).toHaveLength(2)
    expect(await page.textContent('#calls .fn')).toMatch(
      /^transfer\(to: 0x70997970c51812dc3a010c7d01b50e0d17dc79c8, amount: /,
    )
    expect(await page.locator('#flame button.flame-functions').count()).toBe(0)
  })
})
