import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright'
import { buildBrowser } from '../../scripts/buildBrowser.js'
import { CHROMIUM_ARGS, resolveChromium } from '../../scripts/resolveChromium.js'
import { type AnvilInstance, startAnvil } from '../../src/node/devnet/startAnvil.js'
import { serveStatic } from '../../src/node/serveStatic.js'
import { rpcResult } from './rpc.js'

export type LibraryPage = {
  /** The page's URL (the directory's index.html). */
  url: string
  /** The directory served: the built library and worker beside index.html. */
  dir: string
  anvil: AnvilInstance
  /**
   * Opens the page in headless Chromium, waits until `#out` no longer reads `placeholder` (60 s at
   * most), and returns what it then says as JSON, with the page's uncaught errors.
   */
  read(placeholder: string): Promise<{ shown: any; errors: string[] }>
  /** Stops the server and anvil and removes the directory. */
  close(): Promise<void>
}

/**
 * The browser library and its worker as built (buildBrowser), in a fresh directory named after
 * `name` beside an index.html of `html(anvilUrl)`, served by a plain static server on loopback; a
 * fresh anvil mined to block 1 (state at block 1 on verifies, anvil's genesis does not). What started
 * is stopped again when a later step fails.
 */
export async function serveLibraryPage(name: string, html: (anvilUrl: string) => string): Promise<LibraryPage> {
  const dir = mkdtempSync(join(tmpdir(), `edgetrace-${name}-`))
  let anvil: AnvilInstance | undefined
  let server: ReturnType<typeof createServer> | undefined
  const close = async () => {
    server?.close()
    await anvil?.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await buildBrowser({ outDir: dir, only: ['library', 'worker'], quiet: true })
    anvil = await startAnvil()
    await rpcResult(anvil.url, 'evm_mine')
    writeFileSync(join(dir, 'index.html'), html(anvil.url))
    server = createServer((req, res) => {
      serveStatic(dir, req.url ?? '/', res).then((found) => {
        if (!found) res.writeHead(404).end()
      })
    })
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    const read = async (placeholder: string) => {
      const browser = await chromium.launch({ executablePath: await resolveChromium(), args: CHROMIUM_ARGS })
      try {
        const page = await browser.newPage()
        const errors: string[] = []
        page.on('pageerror', (e) => errors.push(e.message))
        await page.goto(url)
        await page.waitForFunction((text) => document.getElementById('out')?.textContent !== text, placeholder, {
          timeout: 60_000,
        })
        return { shown: JSON.parse((await page.textContent('#out')) ?? ''), errors }
      } finally {
        await browser.close()
      }
    }
    return { url, dir, anvil, read, close }
  } catch (err) {
    await close()
    throw err
  }
}
