import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import type { Page } from 'playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningEdgetrace } from '../src/node/startEdgetrace.js'
import { cacheKeys } from '../src/utils/cacheKeys.js'
import { keccak256 } from '../src/utils/keccak256.js'
import { rpcResult } from './src/rpc.js'
import { screenshotsDir } from './src/screenshotsDir.js'
import { type ExplorerPage, startExplorerPage } from './src/startExplorerPage.js'
import { type SourcifyFixture, sourcifyAnswer, startSourcifyFixture } from './src/startSourcifyFixture.js'

// Issue 38, Sourcify in the explorer: a server with no sources of its own and `--sourcify` pointing
// at the fixture Sourcify server (APIv2's shape, the devnet contracts' verified data) serves the page,
// which has no sources either: what the page shows at the source level — the revert's Solidity line,
// calls by the contract's own ABI, the state diff by variable (the server's source tracer), the
// stepper's source pane (the page asking the Sourcify server its explorer.json names) — came from
// Sourcify, matched by bytecode to the code that ran; and a reloaded page shows the stepper's source
// pane from the answer it kept in IndexedDB, without asking Sourcify again. Screenshots source-sourcify.png and
// source-sourcify-pane.png to EDGETRACE_SCREENSHOTS.
const SHOTS = screenshotsDir()

type Json = Record<string, any>
const build = JSON.parse(readFileSync(join(import.meta.dirname, '../src/node/devnet/sources.json'), 'utf8')) as {
  input: Json
  output: Json
}
const scenariosText = build.input.sources['Scenarios.sol'].content as string
const lineOf = (source: string, text: string) => {
  const at = source.indexOf(text)
  if (at < 0 || source.indexOf(text, at + 1) >= 0) throw new Error(`not once in the source: ${text}`)
  return source.slice(0, at).split('\n').length
}

let explorer: ExplorerPage
let sourcify: SourcifyFixture
let server: RunningEdgetrace
let page: Page
const hashOf = (label: string) => explorer.devnet.transactions.find((t) => t.label === label)!.hash

beforeAll(async () => {
  explorer = await startExplorerPage()
  page = explorer.page
  const { devnet } = explorer
  const chainId = BigInt(await rpcResult(devnet.anvil.url, 'eth_chainId', []))
  sourcify = await startSourcifyFixture()
  for (const [address, file, name] of [
    [devnet.contracts.Scenarios!, 'Scenarios.sol', 'Scenarios'],
    [devnet.contracts.Token!, 'Token.sol', 'Token'],
  ] as const) {
    const onchain = await rpcResult(devnet.anvil.url, 'eth_getCode', [address, 'latest'])
    sourcify.answers.set(
      `${chainId}/${address.toLowerCase()}`,
      sourcifyAnswer({ ...build, file, name, chainId, address, onchain }),
    )
  }
  // No --sources and no sources for the page (no explorer-sources.json): only --sourcify.
  server = await explorer.serve({
    upstream: devnet.anvil.url,
    hardfork: devnet.anvil.hardfork,
    engine: { sourcify: sourcify.url },
  })
}, 180_000)

afterAll(async () => {
  await explorer?.close()
  await sourcify?.stop()
})

describe('the explorer on a server with --sourcify', () => {
  it('shows a revert’s Solidity line and the call by the ABI, from Sourcify’s verified sources', async () => {
    await page.goto(`${server.url}/#/tx/${hashOf('revert with Error(string)')}`)
    await page.waitForSelector('#calls[data-source="1"]', { timeout: 60_000 })
    const row = page.locator('#calls .frame-row.failed')
    expect(await row.locator('.error').textContent()).toBe('✖ execution reverted: scenario reverted')
    const line = lineOf(scenariosText, 'revert("scenario reverted")')
    expect(await row.locator('.revert-line').textContent()).toBe(` at Scenarios.sol:${line}`)
    expect(await page.getAttribute('#calls .fn.by-abi', 'data-abi')).toBe('Scenarios')
    expect(await page.textContent('#calls .fn.by-abi')).toMatch(/^revertWithReason\(/)
    // Asked of the Sourcify server by APIv2, for the Scenarios contract the transaction called.
    const asked = sourcify.requests.map((r) => new URL(r, 'http://x').pathname)
    expect(asked).toContain(`/v2/contract/${await chainIdOf()}/${explorer.devnet.contracts.Scenarios!.toLowerCase()}`)
    await page.locator('#calls').screenshot({ path: join(SHOTS, 'source-sourcify.png') })
  })

  it('the stepper’s source pane from Sourcify: the page asks the Sourcify server the server names, and the revert link goes to the line', async () => {
    await page.goto(`${server.url}/#/tx/${hashOf('revert with Error(string)')}`)
    await page.waitForSelector('#stepper .source-pane[data-step]', { timeout: 60_000 })
    await page.click('#calls .revert-line')
    const line = lineOf(scenariosText, 'revert("scenario reverted")')
    // The line the revert ran at (or, where it runs the optimizer's shared revert code, the statement
    // that jumped there: shown dashed).
    const shownLine = '#stepper .source-pane .source-line.current-line, #stepper .source-pane .source-line.near-line'
    await page.waitForFunction(
      ([selector, l]) => document.querySelector<HTMLElement>(selector!)?.dataset.line === l,
      [shownLine, String(line)],
      { timeout: 30_000 },
    )
    expect(await page.textContent('#stepper .source-pane .source-file-name')).toBe('Scenarios.sol')
    expect(await page.textContent(`${shownLine.split(', ')[0]} code, ${shownLine.split(', ')[1]} code`)).toContain(
      'revert("scenario reverted");',
    )
    const stack = await page.$$eval('#stepper .source-pane ol.call-stack li .fn', (es) => es.map((e) => e.textContent))
    expect(stack).toEqual(['Scenarios.revertWithReason'])
    await page.locator('#stepper .source-pane').screenshot({ path: join(SHOTS, 'source-sourcify-pane.png') })
  })

  it('names the Token transfer’s storage by variable (the layout Sourcify gave)', async () => {
    await page.goto(`${server.url}/#/tx/${hashOf('token transfer (legacy, type 0)')}`)
    await page.waitForSelector('#state[data-source="1"]', { timeout: 60_000 })
    const names = await page.$$eval('#state tr.named code.variable', (cs) => cs.map((c) => c.textContent ?? ''))
    expect(names).toEqual([
      `balanceOf[${explorer.devnet.accounts[1]!.toLowerCase()}]`,
      `balanceOf[${explorer.devnet.accounts[0]!.toLowerCase()}]`,
    ])
  })

  it('a reloaded page shows the stepper’s source pane from the Sourcify answer it kept (IndexedDB), without asking Sourcify again', async () => {
    const chainId = await chainIdOf()
    const scenarios = explorer.devnet.contracts.Scenarios!.toLowerCase()
    const onchain: string = await rpcResult(explorer.devnet.anvil.url, 'eth_getCode', [scenarios, 'latest'])
    const key = cacheKeys.sourcify(chainId, bytesToHex(keccak256(hexToBytes(onchain as `0x${string}`))))
    const path = `/v2/contract/${chainId}/${scenarios}`
    const asked = () => sourcify.requests.filter((r) => new URL(r, 'http://x').pathname === path).length
    // A browser context of its own, whose IndexedDB starts empty: the first pane's contract is Sourcify's answer.
    const context = await explorer.browser.newContext({ viewport: { width: 1280, height: 900 } })
    try {
      const tab = await context.newPage()
      tab.on('pageerror', (err) => console.error('page error:', err.message))
      const before = asked()
      await tab.goto(`${server.url}/#/tx/${hashOf('revert with Error(string)')}`)
      const first = await revertPane(tab)
      expect(first.file).toBe('Scenarios.sol')
      expect(first.current).toContain('revert("scenario reverted");')
      expect(asked()).toBeGreaterThan(before)
      // The answer is written to IndexedDB after it is used (not awaited by the page): reload once it is there.
      await tab.waitForFunction(storedIn, ['edgetrace-explorer-sourcify', key] as const, {
        timeout: 30_000,
        polling: 100,
      })
      const beforeReload = asked()
      await tab.reload()
      const again = await revertPane(tab)
      expect(again).toEqual(first)
      expect(asked()).toBe(beforeReload)
    } finally {
      await context.close()
    }
  })

  it('where IndexedDB cannot be opened, the stepper’s source pane still comes from Sourcify, and the console says so once', async () => {
    const context = await explorer.browser.newContext({ viewport: { width: 1280, height: 900 } })
    try {
      // As a browser without IndexedDB for the page (a private mode that refuses it).
      await context.addInitScript(() =>
        Object.defineProperty(window, 'indexedDB', {
          get() {
            throw new DOMException('IndexedDB is refused here', 'SecurityError')
          },
        }),
      )
      const tab = await context.newPage()
      const said: string[] = []
      tab.on('console', (m) => void (m.text().includes('kept in memory only') && said.push(m.text())))
      await tab.goto(`${server.url}/#/tx/${hashOf('revert with Error(string)')}`)
      const pane = await revertPane(tab)
      expect(pane.file).toBe('Scenarios.sol')
      expect(pane.current).toContain('revert("scenario reverted");')
      expect(said).toEqual([
        'sourcify: answers are kept in memory only, for this page (IndexedDB: IndexedDB is refused here)',
      ])
    } finally {
      await context.close()
    }
  })
})

/** The stepper's source pane at the revert (its link in the call tree followed): what it shows. */
async function revertPane(tab: Page): Promise<{ file: string | null; line: string; current: string; lines: string[] }> {
  await tab.waitForSelector('#stepper .source-pane[data-step]', { timeout: 60_000 })
  await tab.waitForSelector('#calls .revert-line', { timeout: 60_000 })
  await tab.click('#calls .revert-line')
  const line = String(lineOf(scenariosText, 'revert("scenario reverted")'))
  const shown = '#stepper .source-pane .source-line.current-line, #stepper .source-pane .source-line.near-line'
  await tab.waitForFunction(
    ([selector, l]) => document.querySelector<HTMLElement>(selector!)?.dataset.line === l,
    [shown, line],
    { timeout: 30_000 },
  )
  return {
    file: await tab.textContent('#stepper .source-pane .source-file-name'),
    line,
    current: (await tab.textContent(`${shown.split(', ')[0]} code, ${shown.split(', ')[1]} code`)) ?? '',
    lines: await tab.$$eval('#stepper .source-pane .source-line code', (cs) => cs.map((c) => c.textContent ?? '')),
  }
}

/** In the page: whether IndexedDB database `name` holds `key` (without creating the database when it is not there). */
async function storedIn([name, key]: readonly [string, string]): Promise<boolean> {
  const db = await new Promise<IDBDatabase | undefined>((resolve) => {
    const open = indexedDB.open(name)
    open.onupgradeneeded = () => open.transaction?.abort()
    open.onsuccess = () => resolve(open.result)
    open.onerror = () => resolve(undefined)
  })
  if (!db) return false
  try {
    if (!db.objectStoreNames.contains('entries')) return false
    return await new Promise<boolean>((resolve) => {
      const got = db.transaction('entries').objectStore('entries').getKey(key)
      got.onsuccess = () => resolve(got.result !== undefined)
      got.onerror = () => resolve(false)
    })
  } finally {
    db.close()
  }
}

const chainIdOf = async () => BigInt(await rpcResult(explorer.devnet.anvil.url, 'eth_chainId', []))
