import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildBrowser } from '../scripts/buildBrowser.js'
import { CHROMIUM_ARGS, resolveChromium } from '../scripts/resolveChromium.js'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { serveStatic } from '../src/node/serveStatic.js'
import { rpcResult } from './src/rpc.js'

// createEdgetrace as built (issue 35): the browser library bundle and the worker copied side by
// side, a page importing createEdgetrace with no `worker` option — the default worker is the
// edgetrace.worker.js beside the module — opened in Chromium against anvil.
let dir: string
let anvil: AnvilInstance
let url: string
let close: () => void

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgetrace-library-built-'))
  await buildBrowser({ outDir: dir, only: ['library', 'worker'], quiet: true })
  anvil = await startAnvil()
  // State at block 1 on verifies (anvil's genesis does not).
  await rpcResult(anvil.url, 'evm_mine')
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><meta charset="utf-8"><title>library</title><pre id="out">…</pre>
<script type="module">
  import { createEdgetrace } from './edgetrace.browser.js'
  try {
    const edgetrace = await createEdgetrace({ upstream: '${anvil.url}', hardfork: 'prague', cache: false })
    const block = await edgetrace.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })
    const call = { from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', value: '0x1' }
    const trace = await edgetrace.request({ method: 'debug_traceCall', params: [call, 'latest', { tracer: 'callTracer' }] })
    await edgetrace.close()
    document.getElementById('out').textContent = JSON.stringify({ hash: block.hash, trace })
  } catch (err) {
    document.getElementById('out').textContent = JSON.stringify({ error: String(err && err.message || err) })
  }
</script>`,
  )
  const server = createServer((req, res) => {
    serveStatic(dir, req.url ?? '/', res).then((found) => {
      if (!found) res.writeHead(404).end()
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  close = () => server.close()
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
}, 120_000)

afterAll(async () => {
  close?.()
  await anvil?.stop()
  rmSync(dir, { recursive: true, force: true })
})

it('the built createEdgetrace starts its worker from beside the module and answers as anvil', async () => {
  const browser = await chromium.launch({ executablePath: await resolveChromium(), args: CHROMIUM_ARGS })
  try {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(url)
    await page.waitForFunction(() => document.getElementById('out')?.textContent !== '…', undefined, {
      timeout: 60_000,
    })
    const shown = JSON.parse((await page.textContent('#out')) ?? '')
    expect(errors).toEqual([])
    expect(shown.error).toBeUndefined()
    expect(shown.hash).toBe((await rpcResult(anvil.url, 'eth_getBlockByNumber', ['latest', false])).hash)
    expect(shown.trace).toMatchObject({ type: 'CALL', value: '0x1', gasUsed: '0x5208' })
  } finally {
    await browser.close()
  }
})
