import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { BROWSER_BUNDLES, buildBrowserBundle } from '../scripts/buildBrowser.js'
import { isNodeOnlyImport } from '../scripts/noNodeBuiltins.js'

// The browser builds (scripts/buildBrowser.ts) with the plugin that refuses Node-only imports
// (scripts/noNodeBuiltins.ts): the real worker graph builds; entries reaching node:fs or ws do not.
const dir = mkdtempSync(join(tmpdir(), 'edgetrace-build-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function entry(name: string, code: string): string {
  const file = join(dir, name)
  writeFileSync(file, code)
  return file
}

describe('browser build', () => {
  it('bundles the worker into one minified IIFE file, no Node-only import in its graph', async () => {
    const { file, modules } = await buildBrowserBundle(BROWSER_BUNDLES.worker, {
      outDir: join(dir, 'out'),
      sourcemap: false,
      quiet: true,
    })
    expect(file).toBe(join(dir, 'out', 'edgetrace.worker.js'))
    expect(modules.map((m) => m.id)).toContain('worker/edgetrace.worker.ts')
    const code = readFileSync(file, 'utf8')
    expect(statSync(file).size).toBeGreaterThan(100_000)
    // A classic script, strict as the sources (SES refuses sloppy mode): no import/export
    // statements, nothing left to load.
    expect(code.startsWith('"use strict";(function(')).toBe(true)
    expect(code).not.toMatch(/^\s*(import|export)\b/m)
    expect(code).not.toMatch(/\brequire\(\s*["'`]/)
    // Every tracer is in it; the worker starts serving at once.
    for (const tracer of ['callTracer', 'prestateTracer', 'flatCallTracer', '4byteTracer', 'noopTracer'])
      expect(code).toContain(tracer)
    // Minified: long lines (SES, for JavaScript tracers, keeps a few multi-line strings of its own).
    expect(code.length / code.split('\n').length).toBeGreaterThan(5000)
  })

  it('fails when the graph imports node:fs, naming the importer and the import', async () => {
    const fsEntry = entry('uses-fs.ts', `import { readFileSync } from 'node:fs'\nconsole.log(readFileSync)\n`)
    const build = buildBrowserBundle(
      { entry: fsEntry, fileName: 'fs.js', format: 'iife' },
      { outDir: join(dir, 'fs-out'), quiet: true },
    )
    await expect(build).rejects.toThrow(`${fsEntry} imports "node:fs"`)
  })

  it('fails when a module deeper in the graph imports ws or a bare built-in', async () => {
    const deep = entry(
      'deep.ts',
      `import WebSocket from 'ws'\nimport { join } from 'path'\nexport const x = [WebSocket, join]\n`,
    )
    const top = entry('uses-ws.ts', `import { x } from './deep.js'\nconsole.log(x)\n`)
    const error = await buildBrowserBundle(
      { entry: top, fileName: 'ws.js', format: 'es' },
      { outDir: join(dir, 'ws-out'), quiet: true },
    ).then(
      () => undefined,
      (err: unknown) => err as Error,
    )
    expect(error?.message).toContain(`${deep} imports "ws"`)
    expect(error?.message).toContain(`${deep} imports "path"`)
    expect(error?.message).not.toContain(`${top} imports`)
  })

  it('tells Node-only imports from others', () => {
    for (const s of [
      'node:fs',
      'node:test',
      'fs',
      'fs/promises',
      'path',
      'events',
      'worker_threads',
      'ws',
      'ws/lib/websocket.js',
    ])
      expect(isNodeOnlyImport(s), s).toBe(true)
    for (const s of ['wsx', 'comlink', '@noble/hashes/sha3.js', '@ethereumjs/util', './fs.js', '../ws'])
      expect(isNodeOnlyImport(s), s).toBe(false)
  })
})
