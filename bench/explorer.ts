// Part of `npm run bench`: the trace explorer page. Its weight (gzipped, as a browser downloads it:
// the page and its script; the in-browser mode's worker apart, fetched only in that mode), and the
// time from opening a transaction's URL to its call tree drawn, for a transaction of 2,001 frames
// (2,000 STATICCALLs to a precompile), in headless Chromium against the Node server on a real anvil:
// cold (the server's caches empty) and warm (median of reloads).
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium } from 'playwright'
import { build } from 'vite'
import { CHROMIUM_ARGS, resolveChromium } from '../scripts/resolveChromium.js'
import { startAnvil } from '../src/node/devnet/startAnvil.js'
import { startEdgetrace } from '../src/node/startEdgetrace.js'
import { DEV_ACCOUNT, rpcResult } from '../test/src/rpc.js'

const ROOT = resolve(import.meta.dirname, '..')
const hex = (n: number, bytes: number) => n.toString(16).padStart(bytes * 2, '0')
const withInit = (code: string) => `0x61${hex(code.length / 2, 2)}80600c6000396000f3${code}`
/** `iterations` STATICCALLs to the identity precompile, one frame each. */
const callLoop = (iterations: number) =>
  withInit(`61${hex(iterations, 2)}5b602060006020600060045afa50600190038060035700`)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`

async function receipt(url: string, hash: string) {
  for (;;) {
    const r = await rpcResult(url, 'eth_getTransactionReceipt', [hash])
    if (r) return r
    await new Promise((done) => setTimeout(done, 50))
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'edgetrace-explorer-bench-'))
  await build({ configFile: resolve(ROOT, 'vite.config.ts'), root: ROOT, logLevel: 'warn', build: { outDir: dir } })
  const assets = readdirSync(join(dir, 'assets')).map((f) => join('assets', f))
  const weigh = (files: string[]) =>
    files.reduce(
      (acc, f) => {
        const bytes = readFileSync(join(dir, f))
        return { raw: acc.raw + bytes.length, gz: acc.gz + gzipSync(bytes, { level: 9 }).length }
      },
      { raw: 0, gz: 0 },
    )
  const page = weigh(['index.html', ...assets.filter((f) => !f.includes('worker'))])
  const worker = weigh(assets.filter((f) => f.includes('worker')))

  const anvil = await startAnvil()
  for (let i = 0; i < 3; i++) await rpcResult(anvil.url, 'evm_mine', []) // past anvil's unverifiable genesis
  const created = await receipt(
    anvil.url,
    await rpcResult(anvil.url, 'eth_sendTransaction', [{ from: DEV_ACCOUNT, data: callLoop(2000) }]),
  )
  const tx = await rpcResult(anvil.url, 'eth_sendTransaction', [
    { from: DEV_ACCOUNT, to: created.contractAddress, data: '0x', gas: '0x1c9c380' },
  ])
  await receipt(anvil.url, tx)
  const server = await startEdgetrace({
    upstream: anvil.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'vendor', 'debug', 'trace'],
    explorerDir: dir,
  })
  const browser = await chromium.launch({ executablePath: await resolveChromium(), args: CHROMIUM_ARGS })
  try {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const open = async () => {
      await tab.goto('about:blank')
      const started = performance.now()
      await tab.goto(`${server.url}/#/tx/${tx}`)
      await tab.waitForSelector('#calls .call-tree', { timeout: 120_000 })
      const total = performance.now() - started
      // The page's own requests to the server (JSON-RPC and /stats): the longest is the trace.
      const fetches = await tab.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((e) => (e as PerformanceResourceTiming).initiatorType === 'fetch')
          .map((e) => e.duration),
      )
      slowest.push(Math.max(...fetches))
      type Explorer = { edgetraceExplorer?: { timings: { last?: { answersAndBuildMs: number; drawMs: number } } } }
      await tab.waitForFunction(() => (globalThis as Explorer).edgetraceExplorer?.timings.last !== undefined)
      const t = await tab.evaluate(() => (globalThis as Explorer).edgetraceExplorer!.timings.last!)
      answers.push(t.answersAndBuildMs)
      draws.push(t.drawMs)
      return total
    }
    const slowest: number[] = []
    const answers: number[] = []
    const draws: number[] = []
    const cold = await open()
    const frames = Number(/([\d,]+) frames/.exec((await tab.textContent('#calls .tools')) ?? '')![1]!.replace(/,/g, ''))
    const drawn = await tab.locator('#calls .frame-row').count()
    const warm: number[] = []
    for (let i = 0; i < 7; i++) warm.push(await open())
    console.log(
      `\nedgetrace trace explorer — the page, and a transaction of ${frames} frames opened in headless Chromium\n`,
    )
    console.log('| what | figure |')
    console.log('|---|---:|')
    console.log(`| page weight: index.html + script, gzipped (raw) | ${kb(page.gz)} (${kb(page.raw)}) |`)
    console.log(
      `| in-browser mode's worker, gzipped (raw), fetched only in that mode | ${kb(worker.gz)} (${kb(worker.raw)}) |`,
    )
    console.log(`| frames drawn at first (the rest of a frame's callees past 100 on a click) | ${drawn} of ${frames} |`)
    console.log(`| open → call tree drawn, server cold | ${Math.round(cold)} ms |`)
    console.log(`| open → call tree drawn, server warm, median of ${warm.length} | ${Math.round(median(warm))} ms |`)
    console.log(
      `| of which answers and building the views (page's clock), warm | ${Math.round(median(answers.slice(1)))} ms |`,
    )
    console.log(
      `| of which drawing (layout and paint to the next frame), warm | ${Math.round(median(draws.slice(1)))} ms |`,
    )
    console.log(
      `| of which the slowest answer (the trace: callTracer + prestate diff, one replay), warm | ${Math.round(median(slowest.slice(1)))} ms |`,
    )
  } finally {
    await browser.close()
    await server.close()
    await anvil.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
