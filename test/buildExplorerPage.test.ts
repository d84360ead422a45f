import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { buildExplorerPage, explorerInputsKey } from './src/buildExplorerPage.js'

const made: string[] = []
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true })
})

it('the explorer page is built once for its inputs: later files get a copy of the same build', async () => {
  // The shared cache (node_modules/.cache/edgetrace-explorer): built here or by an explorer test file before.
  const first = await buildExplorerPage()
  made.push(first)
  const key = explorerInputsKey()
  const shared = join(import.meta.dirname, '../node_modules/.cache/edgetrace-explorer', key)
  const html = await readFile(join(first, 'index.html'), 'utf8')
  expect(html).toContain('trace explorer')
  expect((await readdir(first)).sort()).toEqual((await readdir(shared)).sort())

  // A call finding its build in the cache copies it (no build): a copy marked there comes back marked.
  const cache = await mkdtemp(join(tmpdir(), 'edgetrace-explorer-cache-'))
  made.push(cache)
  await cp(shared, join(cache, key), { recursive: true })
  await writeFile(join(cache, key, 'index.html'), `${html}<!-- cached -->`)
  const second = await buildExplorerPage(cache)
  made.push(second)
  expect(second).not.toBe(first)
  expect(await readFile(join(second, 'index.html'), 'utf8')).toBe(`${html}<!-- cached -->`)
  // Each caller's copy is its own to remove.
  await rm(second, { recursive: true })
  expect(await readdir(join(cache, key))).toContain('index.html')
})

it('the build key changes with any file of the page’s sources, and with nothing else', async () => {
  const root = await mkdtemp(join(tmpdir(), 'edgetrace-explorer-inputs-'))
  made.push(root)
  for (const dir of ['demo/views', 'src', 'worker', 'node_modules/x', 'docs'])
    await mkdir(join(root, dir), { recursive: true })
  await writeFile(join(root, 'index.html'), '<html></html>')
  await writeFile(join(root, 'demo/views/a.ts'), 'export const a = 1')
  await writeFile(join(root, 'src/b.ts'), 'export const b = 2')
  const key = explorerInputsKey(root)
  expect(explorerInputsKey(root)).toBe(key)

  await writeFile(join(root, 'node_modules/x/index.js'), 'module.exports = 1')
  await writeFile(join(root, 'docs/notes.md'), '# notes')
  expect(explorerInputsKey(root)).toBe(key)

  await writeFile(join(root, 'demo/views/a.ts'), 'export const a = 2')
  const edited = explorerInputsKey(root)
  expect(edited).not.toBe(key)
  await writeFile(join(root, 'worker/w.ts'), '')
  expect(explorerInputsKey(root)).not.toBe(edited)
  await writeFile(join(root, 'package-lock.json'), '{}')
  expect(new Set([key, edited, explorerInputsKey(root)]).size).toBe(3)
})
