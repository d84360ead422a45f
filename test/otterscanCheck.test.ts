import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OFFLINE, type ServedOtterscan, serveOtterscan } from '../scripts/serveOtterscan.js'

// The page checks themselves need an Otterscan build, which is not part of this repository: they run
// with `npm run otterscan-check`. Here: the static server they rely on, and the script's refusal to
// run without a build.

const INDEX = '<!doctype html><div id="root"></div>'

describe('serveOtterscan', () => {
  let dist: string
  let site: ServedOtterscan
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'otterscan-dist-'))
    mkdirSync(join(dist, 'assets'))
    writeFileSync(join(dist, 'index.html'), INDEX)
    writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1)')
    writeFileSync(join(tmpdir(), 'otterscan-outside.txt'), 'outside the build')
    site = await serveOtterscan(dist)
  })
  afterAll(async () => {
    await site.close()
    rmSync(dist, { recursive: true, force: true })
  })
  const get = (path: string) => fetch(`${site.origin}${path}`)

  it('answers /config.json with what configure set, not a file', async () => {
    site.configure({ erigonURL: 'http://127.0.0.1:1', experimentalFixedChainId: 31337 })
    const res = await get('/config.json')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ erigonURL: 'http://127.0.0.1:1', experimentalFixedChainId: 31337 })
    site.configure({ erigonURL: 'http://127.0.0.1:2' })
    expect(await (await get('/config.json')).json()).toEqual({ erigonURL: 'http://127.0.0.1:2' })
  })

  it('serves files with their type, and index.html for client-side routes', async () => {
    const js = await get('/assets/app.js')
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/)
    expect(await js.text()).toBe('console.log(1)')
    for (const route of ['/block/37', '/tx/0xabc/trace', '/address/0x5fbdb2315678afecb367f032d93f642f64180aa3']) {
      const res = await get(route)
      expect(res.status, route).toBe(200)
      expect(await res.text(), route).toBe(INDEX)
    }
  })

  // Otterscan parses what it fetches from its asset URL (4-byte signatures) as data: index.html there
  // broke every transaction page ("unexpected token <"), a 404 is what it does without.
  it('answers 404 under the offline prefix and for missing files, never index.html', async () => {
    for (const path of [
      `${OFFLINE}assets/signatures/0x06fdde03`,
      `${OFFLINE}sourcify/x`,
      '/assets/gone.js',
      '/logo.png',
    ]) {
      const res = await get(path)
      expect(res.status, path).toBe(404)
      expect(await res.text(), path).not.toContain('<div id="root">')
    }
  })

  it('serves nothing outside the build', async () => {
    const res = await get('/..%2fotterscan-outside.txt')
    expect(res.status).toBe(404)
    expect(await res.text()).not.toContain('outside the build')
  })
})

describe('npm run otterscan-check', () => {
  it('without an Otterscan build exits 2 naming the directory it looked in', async () => {
    const missing = join(tmpdir(), 'no-otterscan-build-here')
    const run = promisify(execFile)('npx', ['tsx', 'scripts/otterscanCheck.ts', '--dist', missing], {
      timeout: 30_000,
    })
    const err = (await run.then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: number; stderr?: string } | undefined
    expect(err?.code).toBe(2)
    expect(err?.stderr).toContain(`no Otterscan build at ${missing}`)
  })
})
