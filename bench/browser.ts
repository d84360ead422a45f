// Part of `npm run bench`: edgetrace inside a browser, timed there. The embedded devnet (a real
// anvil) behind a small counting HTTP proxy (CORS, optional added latency); the built worker bundle
// (dist/browser/edgetrace.worker.js) and a bench page built against the built library
// (dist/browser/index.js) served from a loopback static server; headless Chromium through playwright.
// In the page, with performance.now(): a worker's start, a cold call (fresh IndexedDB cache), the same
// call warm, then — the first worker flushed and terminated — a second worker on the same cache
// (IndexedDB warm, memory cold). debug_traceCall and debug_traceTransaction, callTracer and the
// default struct logger; median of a few runs, each with a fresh cache. Every answer must equal the
// Node server's (also timed, cold and warm, as a reference).
// Options: --runs N (default 5), --latency MS added to every upstream request (default 0),
// --reuse-build (use dist/browser as built; otherwise the browser bundles are built first).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium } from 'playwright'
import { encodeCall } from '../src/node/devnet/abi.js'
import { startDevnet } from '../src/node/devnet/startDevnet.js'
import { startEdgetrace } from '../src/node/startEdgetrace.js'
import { BROWSER_BUNDLES, DEFAULT_OUT_DIR, ROOT, buildBrowser } from '../scripts/buildBrowser.js'
import { CHROMIUM_ARGS, resolveChromium } from '../scripts/resolveChromium.js'
import { buildBenchPage } from './browser/buildPage.js'
import type { EdgetraceBench, TimedCall } from './browser/page.js'

const arg = (name: string) => {
  const at = process.argv.indexOf(name)
  return at > 0 ? process.argv[at + 1] : undefined
}
const RUNS = Number(arg('--runs') ?? 5)
const LATENCY = Number(arg('--latency') ?? 0)
const REUSE = process.argv.includes('--reuse-build')
const API = ['eth', 'debug', 'trace']

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

type Counts = { requests: number; calls: number; methods: Map<string, number> }

/** A loopback proxy in front of anvil that counts HTTP requests and JSON-RPC calls (CORS for the page). */
async function startCountingProxy(target: string, latencyMs: number) {
  const counts: Counts & { preflights: number } = { requests: 0, calls: 0, methods: new Map(), preflights: 0 }
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-allow-headers': 'content-type',
    'access-control-max-age': '600',
  }
  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'OPTIONS') {
      counts.preflights++
      res.writeHead(204, cors).end()
      return
    }
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    counts.requests++
    try {
      const body = JSON.parse(text) as unknown
      for (const c of Array.isArray(body) ? body : [body]) {
        const method = String((c as { method?: unknown } | null)?.method)
        counts.calls++
        counts.methods.set(method, (counts.methods.get(method) ?? 0) + 1)
      }
    } catch {
      // counted as a request only
    }
    if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs))
    const upstream = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    })
    res
      .writeHead(upstream.status, { ...cors, 'content-type': 'application/json' })
      .end(Buffer.from(await upstream.arrayBuffer()))
  }
  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    snapshot: (): Counts => ({ requests: counts.requests, calls: counts.calls, methods: new Map(counts.methods) }),
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}

/** The bench page, its script and the worker bundle, on 127.0.0.1. */
async function startStaticServer(files: Record<string, { file: string; type: string }>) {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (path === '/favicon.ico') {
      res.writeHead(204).end()
      return
    }
    const entry = files[path === '/' ? '/index.html' : path]
    if (!entry || req.method !== 'GET') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n')
      return
    }
    res.writeHead(200, { 'content-type': entry.type, 'cache-control': 'no-cache' }).end(readFileSync(entry.file))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}

type Sample = { ms: number; requests: number; calls: number; methods: string }
type Row = { call: string; step: string; samples: Sample[] }

async function main() {
  const outDir = DEFAULT_OUT_DIR
  const workerFile = resolve(outDir, BROWSER_BUNDLES.worker.fileName)
  const serviceWorkerFile = resolve(outDir, BROWSER_BUNDLES.serviceWorker.fileName)
  // What 'edgetrace/browser' resolves to: tsc's per-file output.
  const libraryFile = resolve(outDir, 'index.js')
  if (!REUSE || ![workerFile, serviceWorkerFile, libraryFile].every((f) => existsSync(f))) {
    const t = performance.now()
    execFileSync(
      process.execPath,
      [resolve(ROOT, 'node_modules/typescript/bin/tsc'), '-p', resolve(ROOT, 'tsconfig.build.json')],
      { stdio: 'inherit' },
    )
    await buildBrowser({ outDir, quiet: true })
    console.log(`built the browser bundles into ${outDir} in ${((performance.now() - t) / 1000).toFixed(1)} s`)
  }
  const pageDir = mkdtempSync(join(tmpdir(), 'edgetrace-bench-page-'))
  const page = await buildBenchPage(pageDir, libraryFile)

  const devnet = await startDevnet()
  const proxy = await startCountingProxy(devnet.anvil.url, LATENCY)
  const site = await startStaticServer({
    '/index.html': { file: resolve(ROOT, 'bench/browser/index.html'), type: 'text/html; charset=utf-8' },
    '/page.js': { file: page.file, type: 'text/javascript; charset=utf-8' },
    '/edgetrace.worker.js': { file: workerFile, type: 'text/javascript; charset=utf-8' },
    '/edgetrace.sw.js': { file: serviceWorkerFile, type: 'text/javascript; charset=utf-8' },
  })
  const browser = await chromium.launch({ executablePath: await resolveChromium(), args: CHROMIUM_ARGS })
  const rows: Row[] = []
  try {
    const tab = await browser.newPage()
    const pageErrors: string[] = []
    tab.on('pageerror', (err) => pageErrors.push(err.message))
    tab.on('console', (msg) => {
      if (msg.type() === 'error') pageErrors.push(`${msg.text()} (${msg.location().url})`)
    })
    await tab.goto(`${site.url}/`)
    await tab.waitForFunction(() => 'edgetraceBench' in globalThis)

    type Bench = EdgetraceBench
    const inPage = {
      start: (id: string, config: Parameters<Bench['start']>[1]) =>
        tab.evaluate(
          ([id, config]) => (globalThis as unknown as { edgetraceBench: Bench }).edgetraceBench.start(id, config),
          [id, config] as const,
        ),
      call: (id: string, method: string, params: unknown[]) =>
        tab.evaluate(
          ([id, method, params]) =>
            (globalThis as unknown as { edgetraceBench: Bench }).edgetraceBench.call(id, method, params),
          [id, method, params] as const,
        ),
      flush: (id: string) =>
        tab.evaluate((id) => (globalThis as unknown as { edgetraceBench: Bench }).edgetraceBench.flush(id), id),
      close: (id: string) =>
        tab.evaluate((id) => (globalThis as unknown as { edgetraceBench: Bench }).edgetraceBench.close(id), id),
      startServiceWorker: (config: Parameters<Bench['startServiceWorker']>[0]) =>
        tab.evaluate(
          (config) => (globalThis as unknown as { edgetraceBench: Bench }).edgetraceBench.startServiceWorker(config),
          config,
        ),
      serviceWorkerCall: (method: string, params: unknown[]) =>
        tab.evaluate(
          ([method, params]) =>
            (globalThis as unknown as { edgetraceBench: Bench }).edgetraceBench.serviceWorkerCall(method, params),
          [method, params] as const,
        ),
    }

    // What is traced: the devnet's nested token calls (Scenarios.pull → Token.transferFrom,
    // transfer, balanceOf) as a call at the head block (by hash), and the same transaction mined.
    const [alice] = devnet.accounts as [`0x${string}`]
    const { Scenarios: scenarios, Token: token } = devnet.contracts as Record<string, `0x${string}`>
    const tx = devnet.transactions.find((t) => t.label === 'nested token calls (transferFrom, transfer, balanceOf)')
    if (!tx) throw new Error('the devnet has no nested token calls transaction')
    const head = (await (
      await fetch(devnet.anvil.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['latest', false] }),
      })
    ).json()) as { result: { hash: string; number: string } }
    const call = {
      from: alice,
      to: scenarios,
      data: encodeCall('pull(address,address,uint256)', [token, alice, 10n ** 18n]),
    }
    const at = { blockHash: head.result.hash }
    const cases: { name: string; method: string; params: unknown[] }[] = [
      { name: 'debug_traceCall callTracer', method: 'debug_traceCall', params: [call, at, { tracer: 'callTracer' }] },
      { name: 'debug_traceCall struct logger', method: 'debug_traceCall', params: [call, at, {}] },
      {
        name: 'debug_traceTransaction callTracer',
        method: 'debug_traceTransaction',
        params: [tx.hash, { tracer: 'callTracer' }],
      },
      { name: 'debug_traceTransaction struct logger', method: 'debug_traceTransaction', params: [tx.hash, {}] },
    ]

    const row = (callName: string, step: string) => {
      let r = rows.find((x) => x.call === callName && x.step === step)
      if (!r) rows.push((r = { call: callName, step, samples: [] }))
      return r
    }
    /** Runs `fn`, records its in-page (or Node) time and the upstream requests counted meanwhile. */
    async function measure<T extends { ms: number }>(callName: string, step: string, fn: () => Promise<T>): Promise<T> {
      const before = proxy.snapshot()
      const out = await fn()
      const after = proxy.snapshot()
      const methods = [...after.methods]
        .map(([m, n]) => [m, n - (before.methods.get(m) ?? 0)] as const)
        .filter(([, n]) => n > 0)
        .map(([m, n]) => (n > 1 ? `${m} ×${n}` : m))
        .join(', ')
      row(callName, step).samples.push({
        ms: out.ms,
        requests: after.requests - before.requests,
        calls: after.calls - before.calls,
        methods,
      })
      return out
    }
    const expected = new Map<string, string>()
    function check(c: { name: string }, step: string, got: TimedCall) {
      if (got.error) throw new Error(`${c.name}, ${step}: ${got.error.code} ${got.error.message}`)
      if (got.result !== expected.get(c.name))
        throw new Error(`${c.name}, ${step}: the browser's answer differs from the Node server's`)
    }

    for (const c of cases) {
      // The Node server as the reference: its answer, and its own cold and warm times.
      for (let run = 0; run < RUNS; run++) {
        const node = await startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague', api: API })
        const post = async () => {
          const t = performance.now()
          const res = await fetch(node.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: c.method, params: c.params }),
          })
          const body = (await res.json()) as { result?: unknown; error?: { message: string } }
          const ms = performance.now() - t
          if (body.error) throw new Error(`Node server, ${c.name}: ${body.error.message}`)
          return { ms, result: JSON.stringify(body.result) }
        }
        const cold = await measure(c.name, 'Node server (reference): cold', post)
        await measure(c.name, 'Node server (reference): warm', post)
        if (!expected.has(c.name)) expected.set(c.name, cold.result)
        else if (expected.get(c.name) !== cold.result)
          throw new Error(`Node server, ${c.name}: answers differ between runs`)
        await node.close()
      }
      for (let run = 0; run < RUNS; run++) {
        const config = {
          upstream: proxy.url,
          api: API,
          hardfork: 'prague',
          cache: { name: `edgetrace-bench-${Date.now()}-${c.method}-${run}` },
        }
        const first = await measure(c.name, 'worker start, empty cache', () => inPage.start('first', config))
        if (first.startedOffline) throw new Error('the first worker started offline')
        check(c, 'cold', await measure(c.name, 'cold (fresh cache)', () => inPage.call('first', c.method, c.params)))
        check(c, 'warm', await measure(c.name, 'warm (same worker)', () => inPage.call('first', c.method, c.params)))
        await inPage.flush('first')
        await inPage.close('first')
        await measure(c.name, 'worker start, same cache', () => inPage.start('second', config))
        check(
          c,
          'second worker',
          await measure(c.name, 'second worker: IndexedDB warm, memory cold', () =>
            inPage.call('second', c.method, c.params),
          ),
        )
        await inPage.close('second')
      }
    }
    // The service-worker bundle (classic): the same call POSTed to its endpoint. Each run reconfigures it
    // with a fresh cache, which starts a fresh daemon.
    const swCase = cases[0]!
    for (let run = 0; run < RUNS; run++) {
      const config = {
        upstream: proxy.url,
        api: API,
        hardfork: 'prague',
        cache: { name: `edgetrace-bench-sw-${Date.now()}-${run}` },
      }
      const swName = `${swCase.name}, service worker (fetch POST)`
      await measure(swName, 'register/configure, empty cache', () => inPage.startServiceWorker(config))
      check(
        swCase,
        'service worker cold',
        await measure(swName, 'cold (fresh cache)', () => inPage.serviceWorkerCall(swCase.method, swCase.params)),
      )
      check(
        swCase,
        'service worker warm',
        await measure(swName, 'warm', () => inPage.serviceWorkerCall(swCase.method, swCase.params)),
      )
    }
    if (pageErrors.length > 0) throw new Error(`the bench page reported errors:\n${pageErrors.join('\n')}`)

    const version = browser.version()
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`
    console.log(
      `\nedgetrace in the browser — Chromium ${version} headless; the worker bundle ${kb(statSync(workerFile).size)} (dist/browser/edgetrace.worker.js, new Worker(url) classic),`,
    )
    console.log(
      `the page ${kb(statSync(page.file).size)} built against dist/browser/index.js; anvil on loopback behind a counting proxy (+${LATENCY} ms per request);`,
    )
    console.log(
      `the call: Scenarios.pull → Token.transferFrom, transfer, balanceOf at the head block by hash; the transaction: the devnet's "${tx.label}".`,
    )
    console.log(
      `ms timed in the page with performance.now() around client.call (postMessage both ways included); median (min–max) of ${RUNS} runs, each on a fresh IndexedDB cache;`,
    )
    console.log(
      "upstream: HTTP requests / JSON-RPC calls reaching anvil (median). Every answer equals the Node server's.\n",
    )
    console.log('| call | step | ms median | ms min–max | upstream requests | upstream calls |')
    console.log('|---|---|---:|---:|---:|---:|')
    for (const r of rows) {
      const ms = r.samples.map((s) => s.ms)
      console.log(
        `| ${r.call} | ${r.step} | ${median(ms).toFixed(1)} | ${Math.min(...ms).toFixed(1)}–${Math.max(...ms).toFixed(1)} | ${median(r.samples.map((s) => s.requests))} | ${median(r.samples.map((s) => s.calls))} |`,
      )
    }
    const warm = rows.filter((r) => r.step.startsWith('warm'))
    const idb = rows.filter((r) => r.step.startsWith('second worker'))
    console.log(
      '\nEach worker run starts a new Worker: a fresh JavaScript isolate, so its start parses the bundle and its cold call also',
    )
    console.log(
      'compiles the code it runs. The service worker stays alive across runs (reconfigured, a fresh daemon and cache each time):',
    )
    console.log('only its first run pays for that.')
    console.log('\nWhat the upstream was asked (last run):')
    for (const r of rows)
      if (!r.step.startsWith('Node')) console.log(`- ${r.call}, ${r.step}: ${r.samples.at(-1)!.methods || 'nothing'}`)
    console.log(
      `\nwarm calls in the worker: at most ${Math.max(...warm.flatMap((r) => r.samples.map((s) => s.requests)))} upstream requests; a second worker on a warm IndexedDB cache: at most ${Math.max(...idb.flatMap((r) => r.samples.map((s) => s.requests)))}`,
    )
    console.log(`CORS preflights answered by the proxy: ${proxy.counts.preflights} (not counted above)`)
  } finally {
    await browser.close()
    await site.stop()
    await proxy.stop()
    await devnet.stop()
    rmSync(pageDir, { recursive: true, force: true })
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
