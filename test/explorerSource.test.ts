import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devnetSourcesText } from '../src/node/devnet/devnetSources.js'
import type { RunningEdgetrace } from '../src/node/startEdgetrace.js'
import { screenshotsDir } from './src/screenshotsDir.js'
import { type ExplorerPage, startExplorerPage } from './src/startExplorerPage.js'

// Issue 38, the stepper at the source level, as a person uses it: the explorer page in Chromium on
// the embedded devnet, its server giving the devnet's build-info as `npm start` does (GET
// /explorer-sources.json) — step into / over / out by Solidity line, asserting the highlighted line
// and the call stack the page shows. Then a server without sources: build outputs given through
// the file input and by a drop, and the in-browser daemon given them too (its
// edgetrace_sourceTracer). Screenshots go to EDGETRACE_SCREENSHOTS (`npm run screenshots`).
const SHOTS = screenshotsDir()
const NESTED = 'nested token calls (transferFrom, transfer, balanceOf)'

let explorer: ExplorerPage
let server: RunningEdgetrace
let page: Page
const hashOf = (label: string) => explorer.devnet.transactions.find((t) => t.label === label)!.hash

beforeAll(async () => {
  // startExplorerPage's server gives the devnet's sources as npm start's does.
  explorer = await startExplorerPage()
  ;({ server, page } = explorer)
}, 180_000)

afterAll(() => explorer?.close())

type Shown = { step: number; file: string; line: number | null; text: string; mark: string; stack: string[] }

/** What the source pane shows: its step, the file and highlighted line, the statement's mark, the call stack. */
async function shown(): Promise<Shown> {
  return page.evaluate(() => {
    const pane = document.querySelector<HTMLElement>('#stepper .source-pane')!
    const row = pane.querySelector<HTMLElement>('.source-line.current-line, .source-line.near-line')
    return {
      step: Number(pane.dataset.step),
      file: pane.querySelector('.source-file-name')?.textContent ?? '',
      line: row ? Number(row.dataset.line) : null,
      text: row?.querySelector('code')?.textContent?.trim() ?? '',
      mark: row?.querySelector('mark')?.textContent ?? '',
      stack: Array.from(pane.querySelectorAll('ol.call-stack li .fn')).map((e) => e.textContent ?? ''),
    }
  })
}

/** Presses a source-level button (or a key) and waits for the pane to show the step it moved to. */
async function press(kind: 'into' | 'over' | 'out', how: 'button' | 'key' = 'button'): Promise<Shown> {
  const before = (await shown()).step
  if (how === 'key') await page.keyboard.press({ into: 's', over: 'n', out: 'f' }[kind])
  else await page.click(`#stepper button.step-${kind}`)
  await page.waitForFunction(
    (b) => {
      const pane = document.querySelector<HTMLElement>('#stepper .source-pane')
      return pane !== null && pane.dataset.step !== String(b)
    },
    before,
    { timeout: 30_000 },
  )
  return shown()
}

async function openWithSources(label: string) {
  await page.goto(`${server.url}/#/tx/${hashOf(label)}`)
  await page.waitForSelector('#stepper .source-pane[data-step]', { timeout: 60_000 })
}

describe('the stepper at the source level (the devnet’s sources, served as npm start serves them)', () => {
  it('says the page has the devnet’s contracts, and shows the first step’s source', async () => {
    await openWithSources(NESTED)
    expect(await page.textContent('#sources-status')).toContain('sources: 4 contracts (the devnet: 4 contracts)')
    const first = await shown()
    expect(first).toMatchObject({ step: 0, file: 'Scenarios.sol', stack: ['Scenarios.pull'] })
    expect(first.text).toContain('contract Scenarios {')
  })

  it('steps over pull’s statements, into Token.transfer and _move, and out again', async () => {
    await openWithSources(NESTED)
    // Over: the dispatcher, then pull's definition and its statements, the token calls run through.
    expect(await press('over')).toMatchObject({ line: 201, stack: ['Scenarios.pull'] })
    let at = await press('over')
    expect([at.line, at.text]).toEqual([202, 'IToken(token).transferFrom(from, address(this), amount);'])
    at = await press('over', 'key')
    expect([at.file, at.line, at.text]).toEqual(['Scenarios.sol', 203, 'IToken(token).transfer(from, amount / 2);'])
    expect(at.mark).toBe('IToken(token).transfer')
    // Into: the external call to the token, its function, then the internal call to _move.
    at = await press('into')
    expect([at.file, at.line, at.stack]).toEqual(['Token.sol', 22, ['Scenarios.pull', 'Token.transfer']])
    expect(at.text).toContain('function transfer(address to, uint256 value) external returns (bool)')
    at = await press('into', 'key')
    expect([at.line, at.text]).toEqual([23, '_move(msg.sender, to, value);'])
    at = await press('into')
    expect([at.line, at.stack]).toEqual([41, ['Scenarios.pull', 'Token.transfer', '_move']])
    at = await press('into')
    expect([at.line, at.text, at.mark]).toEqual([
      42,
      'require(balanceOf[from] >= value, "insufficient balance");',
      'balanceOf[from]',
    ])
    // Gas per line from the server's edgetrace_sourceTracer, beside the line numbers.
    const gas = await page.textContent('#stepper .source-line.current-line .line-gas')
    expect(gas).toMatch(/^[\d,]+$/)
    // The call stack says where each caller is: transfer at line 23, pull at line 203.
    const lines = await page.locator('#stepper ol.call-stack li').allTextContents()
    expect(lines).toEqual([
      'Scenarios.pull — Scenarios.sol:203',
      'Token.transfer — Token.sol:23',
      '_move (internal) — Token.sol:42',
    ])
    await page.locator('#stepper .source-pane').scrollIntoViewIfNeeded()
    await page.locator('#stepper .source-pane').screenshot({ path: join(SHOTS, 'source-stepper.png') })
    // Out: back in transfer after _move returned, then back in pull after the token call.
    at = await press('out')
    expect([at.file, at.line, at.stack]).toEqual(['Token.sol', 23, ['Scenarios.pull', 'Token.transfer']])
    at = await press('out', 'key')
    expect([at.file, at.line, at.stack]).toEqual(['Scenarios.sol', 203, ['Scenarios.pull']])
    at = await press('over')
    expect([at.line, at.text]).toEqual([204, 'return IToken(token).balanceOf(address(this));'])
    // The opcode stepper moved along: its current step is the source pane's.
    expect(await page.inputValue('#stepper input.go')).toBe(String(at.step))
    await page.locator('#stepper').screenshot({ path: join(SHOTS, 'source-stepper-full.png') })
  })

  it('a creation transaction: its init code at the constructor’s lines (the devnet deploying the Token)', async () => {
    await openWithSources('deploy Token')
    const first = await shown()
    expect(first).toMatchObject({ step: 0, file: 'Token.sol', stack: ['new Token'] })
    // The call tree's creation row: the constructor's arguments, decoded by the source tracer.
    await page.waitForSelector('#calls .frame-row .fn.by-abi', { timeout: 30_000 })
    expect(await page.textContent('#calls .frame-row .fn')).toBe('new Token(supply: 1000000000000000000000000)')
    // Over the constructor's statements, one by one.
    const seen: [number | null, string][] = []
    for (let i = 0; i < 8 && !seen.some(([l]) => l === 19); i++) {
      const at = await press('over')
      seen.push([at.line, at.text])
    }
    expect(seen).toEqual(
      expect.arrayContaining([
        [17, 'totalSupply = supply;'],
        [18, 'balanceOf[msg.sender] = supply;'],
        [19, 'emit Transfer(address(0), msg.sender, supply);'],
      ]),
    )
    // Gas per line from the server's source tracer, which matched the init code too.
    expect(await page.textContent('#stepper .source-line.current-line .line-gas')).toMatch(/^[\d,]+$/)
    await page.locator('#stepper .source-pane').scrollIntoViewIfNeeded()
    await page.locator('#stepper .source-pane').screenshot({ path: join(SHOTS, 'source-constructor.png') })
  })

  it('follows EIP-7702 delegations: a delegated EOA DELEGATECALLs an EOA delegated in the same transaction', async () => {
    await openWithSources(
      'EIP-7702 (type 4): call a delegated EOA that DELEGATECALLs an EOA delegated in the same transaction',
    )
    expect((await shown()).stack).toEqual(['Scenarios.delegate'])
    expect((await press('into')).line).toBe(56)
    expect((await press('into')).line).toBe(57)
    // The second EOA's code is the delegation this transaction set (the state diff's), to the helper: Scenarios.
    const at = await press('into')
    expect([at.line, at.stack]).toEqual([50, ['Scenarios.delegate', 'Scenarios.increment']])
  })

  it('a simulated call has the source level too (debug_traceCall)', async () => {
    await page.goto(`${server.url}/#/call`)
    await page.waitForSelector('#call-form')
    await page.fill('#call-args', `${explorer.devnet.accounts[1]}, 5 ether`)
    await page.click('#call-form button[type=submit]')
    await page.waitForSelector('#stepper .source-pane[data-step]', { timeout: 60_000 })
    let at = await press('into')
    expect([at.file, at.line, at.stack]).toEqual(['Token.sol', 22, ['Token.transfer']])
    expect((await press('into')).line).toBe(23)
    at = await press('into')
    expect([at.line, at.stack]).toEqual([41, ['Token.transfer', '_move']])
  })

  it('steps out of the outermost function: says there is no caller', async () => {
    await openWithSources('revert with Error(string)')
    const at = await press('into')
    expect(at.stack).toEqual(['Scenarios.revertWithReason'])
    await page.click('#stepper button.step-out')
    await page.waitForSelector('#stepper .source-status:has-text("no caller")', { timeout: 30_000 })
  })
})

/** The devnet's build laid out as Foundry's out/ (an artifact per contract, and the build-info), in a new folder. */
function foundryOut(): string {
  const info = JSON.parse(devnetSourcesText())
  const root = mkdtempSync(join(tmpdir(), 'edgetrace-foundry-'))
  const sourceIdToPath: Record<string, string> = {}
  for (const [path, s] of Object.entries<{ id: number }>(info.output.sources)) sourceIdToPath[s.id] = path
  for (const [file, byName] of Object.entries<Record<string, any>>(info.output.contracts)) {
    for (const [name, c] of Object.entries<any>(byName)) {
      mkdirSync(join(root, 'out', file), { recursive: true })
      writeFileSync(
        join(root, 'out', file, `${name}.json`),
        JSON.stringify({
          abi: c.abi,
          deployedBytecode: c.evm.deployedBytecode,
          metadata: { settings: { compilationTarget: { [file]: name } } },
          ast: { absolutePath: file },
          id: info.output.sources[file].id,
        }),
      )
    }
  }
  mkdirSync(join(root, 'out/build-info'), { recursive: true })
  writeFileSync(
    join(root, 'out/build-info/5e1f.json'),
    JSON.stringify({ source_id_to_path: sourceIdToPath, input: info.input }),
  )
  // What a project folder also holds, which the page leaves alone: dependencies and caches.
  mkdirSync(join(root, 'out/cache'), { recursive: true })
  writeFileSync(join(root, 'out/cache/solidity-files-cache.json'), '{"_format": "ethers-rs-sol-cache-3"}')
  return join(root, 'out')
}

describe('sources given to the page: a file input, a drop, and the in-browser daemon', () => {
  it('reads a Foundry out/ folder picked with the folder input', async () => {
    const bare = await explorer.serve({ upstream: explorer.devnet.anvil.url, hardfork: explorer.devnet.anvil.hardfork })
    await page.goto(`${bare.url}/#/tx/${hashOf(NESTED)}`)
    await page.waitForSelector('#stepper .stepper', { timeout: 60_000 })
    const out = foundryOut()
    try {
      await page.setInputFiles('#sources-folder', out)
      await page.waitForSelector('#stepper .source-pane[data-step]', { timeout: 60_000 })
      expect(await page.textContent('#sources-status')).toContain(
        'sources: 4 contracts (a folder: 4 contracts) · a folder: 4 contracts from 5 files',
      )
      expect(await press('over')).toMatchObject({ file: 'Scenarios.sol', line: 201, stack: ['Scenarios.pull'] })
    } finally {
      rmSync(join(out, '..'), { recursive: true, force: true })
    }
  })

  it('reads a build-info from the file input and a drop, steps by source, and gives it to the page’s daemon', async () => {
    const bare = await explorer.serve({
      upstream: explorer.devnet.anvil.url,
      hardfork: explorer.devnet.anvil.hardfork,
    })
    await page.goto(`${bare.url}/#/tx/${hashOf(NESTED)}`)
    await page.waitForSelector('#stepper .stepper', { timeout: 60_000 })
    expect(await page.textContent('#sources-status')).toContain('sources: none')
    expect(await page.locator('#stepper .source-pane').count()).toBe(0)
    // A file that is no build output, then the devnet's build-info, through the ordinary file input.
    await page.setInputFiles('#sources-files', [
      { name: 'package.json', mimeType: 'application/json', buffer: Buffer.from('{"name": "app"}') },
    ])
    await page.waitForSelector('#sources-status .error', { timeout: 10_000 })
    expect(await page.textContent('#sources-status')).toContain(
      'files: 0 contracts from 1 file — not read: package.json (no solc standard-JSON output, Hardhat build-info or Foundry artifact)',
    )
    // The devnet's build-info, dropped on the page: read, and the stepper shows the source level.
    await page.evaluate((text) => {
      const data = new DataTransfer()
      data.items.add(new File([text], 'build-info.json', { type: 'application/json' }))
      const drop = new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true })
      document.querySelector('main')!.dispatchEvent(drop)
    }, devnetSourcesText())
    await page.waitForSelector('#stepper .source-pane[data-step]', { timeout: 60_000 })
    expect(await page.textContent('#sources-status')).toContain('sources: 4 contracts (dropped files: 4 contracts)')
    expect(await press('over')).toMatchObject({ file: 'Scenarios.sol', line: 201 })
    // The same file again through the file input: read, and nothing new (the same code is one contract).
    await page.setInputFiles('#sources-files', [
      { name: 'sources.json', mimeType: 'application/json', buffer: Buffer.from(devnetSourcesText()) },
    ])
    await page.waitForSelector('#sources-status:has-text("files: 4 contracts from 1 file (4 already known)")', {
      timeout: 10_000,
    })
    await page.locator('header').screenshot({ path: join(SHOTS, 'source-files.png') })
    // In-browser mode: the page's daemon is given the files read (config.sources), and its
    // edgetrace_sourceTracer answers at the source level.
    await page.selectOption('#mode', 'browser')
    await page.fill('#url', explorer.devnet.anvil.url)
    await page.fill('#hardfork', explorer.devnet.anvil.hardfork)
    await page.click('#conn-form button[type=submit]')
    await page.waitForSelector('#conn-status:has-text("answered by edgetrace in this browser")', { timeout: 60_000 })
    const top = await page.evaluate(async (hash) => {
      const api = (
        globalThis as {
          edgetraceExplorer?: { connect(): Promise<{ call(m: string, p: unknown[]): Promise<unknown> }> }
        }
      ).edgetraceExplorer!
      const conn = await api.connect()
      return conn.call('debug_traceTransaction', [hash, { tracer: 'edgetrace_sourceTracer' }])
    }, hashOf(NESTED))
    expect(top).toMatchObject({ contract: 'Scenarios', function: 'pull' })
    await page.waitForSelector('#stepper .source-pane[data-step]', { timeout: 60_000 })
    expect(await press('over')).toMatchObject({ file: 'Scenarios.sol', line: 201 })
  })
})
