import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium } from 'playwright'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildBrowser } from '../scripts/buildBrowser.js'
import { CHROMIUM_ARGS, resolveChromium } from '../scripts/resolveChromium.js'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { serveStatic } from '../src/node/serveStatic.js'

// docs/browser.md's page without a bundler, exactly as it is printed there: the built library and
// worker copied next to a plain HTML file, served by a plain static server, opened in Chromium.
const ROOT = resolve(import.meta.dirname, '..')
let dir: string
let anvil: AnvilInstance
let close: () => void

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgetrace-plain-page-'))
  await buildBrowser({ outDir: dir, only: ['library', 'worker'], quiet: true })
  anvil = await startAnvil()
  // State at block 1 on verifies (anvil's genesis does not).
  await fetch(anvil.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_mine', params: [] }),
  })
  const doc = readFileSync(resolve(ROOT, 'docs/browser.md'), 'utf8')
  const block = /```html\n([\s\S]*?edgetrace\.browser\.js[\s\S]*?)```/.exec(doc)?.[1]
  if (!block) throw new Error('docs/browser.md has no html block importing edgetrace.browser.js')
  // The one change: the upstream (anvil, with the devnet's hardfork: its chain id is no known chain's).
  const page = block.replace("upstream: 'https://your-node.example',", `upstream: '${anvil.url}', hardfork: 'prague',`)
  expect(page).not.toBe(block)
  writeFileSync(join(dir, 'index.html'), `<!doctype html><meta charset="utf-8"><title>plain</title>\n${page}`)
  const server = createServer((req, res) => {
    serveStatic(dir, req.url ?? '/', res).then((found) => {
      if (!found) res.writeHead(404).end()
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  close = () => server.close()
  ;(globalThis as { plainUrl?: string }).plainUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
}, 120_000)

afterAll(async () => {
  close?.()
  await anvil?.stop()
  rmSync(dir, { recursive: true, force: true })
})

it('the docs page without a bundler traces a call with the built library and worker alone', async () => {
  const library = readFileSync(join(dir, 'edgetrace.browser.js'), 'utf8')
  // Self-contained: no bare import specifiers left for an import map to resolve.
  expect(library).not.toMatch(/\bfrom\s*["'](?![./])/)
  expect(library).not.toMatch(/\bimport\s*["'](?![./])/)
  const browser = await chromium.launch({ executablePath: await resolveChromium(), args: CHROMIUM_ARGS })
  try {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto((globalThis as { plainUrl?: string }).plainUrl!)
    await page.waitForFunction(() => document.getElementById('out')?.textContent !== 'tracing…', undefined, {
      timeout: 60_000,
    })
    const shown = JSON.parse((await page.textContent('#out')) ?? '')
    expect(errors).toEqual([])
    expect(shown).toMatchObject({
      type: 'CALL',
      from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      value: '0x1',
      gasUsed: '0x5208',
    })
  } finally {
    await browser.close()
  }
})
