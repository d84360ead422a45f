import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type LibraryPage, serveLibraryPage } from './src/serveLibraryPage.js'

// docs/browser.md's page without a bundler, exactly as it is printed there: the built library and
// worker copied next to a plain HTML file, served by a plain static server, opened in Chromium.
const ROOT = resolve(import.meta.dirname, '..')
let served: LibraryPage

beforeAll(async () => {
  const doc = readFileSync(resolve(ROOT, 'docs/browser.md'), 'utf8')
  const block = /```html\n([\s\S]*?edgetrace\.browser\.js[\s\S]*?)```/.exec(doc)?.[1]
  if (!block) throw new Error('docs/browser.md has no html block importing edgetrace.browser.js')
  served = await serveLibraryPage('plain-page', (anvilUrl) => {
    // The one change: the upstream (anvil, with the devnet's hardfork: its chain id is no known chain's).
    const page = block.replace("upstream: 'https://your-node.example',", `upstream: '${anvilUrl}', hardfork: 'prague',`)
    expect(page).not.toBe(block)
    return `<!doctype html><meta charset="utf-8"><title>plain</title>\n${page}`
  })
}, 120_000)

afterAll(() => served?.close())

it('the docs page without a bundler traces a call with the built library and worker alone', async () => {
  const library = readFileSync(join(served.dir, 'edgetrace.browser.js'), 'utf8')
  // Self-contained: no bare import specifiers left for an import map to resolve.
  expect(library).not.toMatch(/\bfrom\s*["'](?![./])/)
  expect(library).not.toMatch(/\bimport\s*["'](?![./])/)
  const { shown, errors } = await served.read('tracing…')
  expect(errors).toEqual([])
  expect(shown).toMatchObject({
    type: 'CALL',
    from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    value: '0x1',
    gasUsed: '0x5208',
  })
})
