// Part of `npm run bench`: what the browser bundles weigh. Builds them (the minified ones into
// dist/browser as `npm run build` does, unless --reuse-build; unminified copies into a temp dir for
// the raw column) and prints raw, minified and gzipped (zlib level 9) sizes of the worker, the
// service worker and the browser library, the worker's largest parts, and what an app importing
// connectEdgetraceWorker and registerEdgetraceServiceWorker from the built library ships.
// Target: the worker ≤ 400 KB gzipped, every tracer in it.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import {
  BROWSER_BUNDLES,
  type BrowserBundleName,
  DEFAULT_OUT_DIR,
  ROOT,
  WASM_EVM_FILE,
  buildBrowserBundle,
} from '../scripts/buildBrowser.js'
import { buildBenchPage } from './browser/buildPage.js'

const REUSE = process.argv.includes('--reuse-build')
const WORKER_TARGET_GZIP = 400 * 1024
const TRACERS = ['callTracer', 'flatCallTracer', 'prestateTracer', '4byteTracer', 'noopTracer', 'muxTracer']

const kb = (bytes: number) => (bytes / 1024).toFixed(1)
const gzip = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length

/** The package a module belongs to (`@scope/name`, `name`), or the project folder (`src/rpc`, `worker`). */
function owner(id: string): string {
  const nm = id.lastIndexOf('node_modules/')
  if (nm >= 0) {
    const parts = id.slice(nm + 'node_modules/'.length).split('/')
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!
  }
  const parts = id.replace(/^\0/, '').split('/')
  return parts[0] === 'src' && parts.length > 2 ? `edgetrace ${parts[0]}/${parts[1]}` : `edgetrace ${parts[0]}`
}

async function main() {
  const names = Object.keys(BROWSER_BUNDLES) as BrowserBundleName[]
  const raw = mkdtempSync(join(tmpdir(), 'edgetrace-bundle-raw-'))
  const pages = mkdtempSync(join(tmpdir(), 'edgetrace-bundle-page-'))
  try {
    const started = performance.now()
    const rawBuilds = new Map<BrowserBundleName, Awaited<ReturnType<typeof buildBrowserBundle>>>()
    for (const name of names) {
      const minified = resolve(DEFAULT_OUT_DIR, BROWSER_BUNDLES[name].fileName)
      if (!REUSE || !existsSync(minified))
        await buildBrowserBundle(BROWSER_BUNDLES[name], { outDir: DEFAULT_OUT_DIR, quiet: true })
      rawBuilds.set(
        name,
        await buildBrowserBundle(BROWSER_BUNDLES[name], { outDir: raw, minify: false, sourcemap: false, quiet: true }),
      )
    }
    const appFromLibrary = await buildBenchPage(join(pages, 'library'), resolve(DEFAULT_OUT_DIR, 'index.js'))
    const appFromSources = await buildBenchPage(join(pages, 'sources'), resolve(ROOT, 'src/browser/index.ts'))
    const buildSeconds = (performance.now() - started) / 1000

    console.log(
      `\nedgetrace browser bundles — built with Vite ${(await import('vite')).version} (rolldown), minified (oxc), gzip level 9; builds took ${buildSeconds.toFixed(1)} s\n`,
    )
    console.log('| bundle | format | raw KB | minified KB | gzipped KB | modules |')
    console.log('|---|---|---:|---:|---:|---:|')
    let workerGzip = 0
    let workerCode = ''
    for (const name of names) {
      const b = BROWSER_BUNDLES[name]
      const min = readFileSync(resolve(DEFAULT_OUT_DIR, b.fileName))
      const rawSize = readFileSync(resolve(raw, b.fileName)).length
      const gz = gzip(min)
      if (name === 'worker') {
        workerGzip = gz
        workerCode = min.toString('utf8')
      }
      const deps = 'externalDependencies' in b && b.externalDependencies ? ', npm dependencies external' : ''
      console.log(
        `| dist/browser/${b.fileName} | ${b.format}${deps} | ${kb(rawSize)} | ${kb(min.length)} | ${kb(gz)} | ${rawBuilds.get(name)!.modules.length} |`,
      )
    }
    for (const [label, app] of [
      [
        'an app (the bench page: connectEdgetraceWorker, registerEdgetraceServiceWorker) built against dist/browser/index.js',
        appFromLibrary,
      ],
      ['the same app built from src/browser (for comparison)', appFromSources],
    ] as const) {
      const code = readFileSync(app.file)
      console.log(`| ${label} | es, all bundled | – | ${kb(code.length)} | ${kb(gzip(code))} | ${app.modules.length} |`)
    }
    // The wasm EVM (issue 37): fetched apart, only by an `engine: 'wasm'` run (not in any bundle above).
    const wasm = resolve(DEFAULT_OUT_DIR, WASM_EVM_FILE)
    if (existsSync(wasm)) {
      const bytes = readFileSync(wasm)
      console.log(
        `| dist/browser/${WASM_EVM_FILE} (loaded lazily) | wasm | ${kb(bytes.length)} | – | ${kb(gzip(bytes))} | – |`,
      )
    }

    const byOwner = new Map<string, number>()
    for (const m of rawBuilds.get('worker')!.modules)
      byOwner.set(owner(m.id), (byOwner.get(owner(m.id)) ?? 0) + m.renderedBytes)
    const total = [...byOwner.values()].reduce((a, b) => a + b, 0)
    console.log('\nThe worker bundle by package (share of the unminified code):\n')
    console.log('| package | raw KB | share |')
    console.log('|---|---:|---:|')
    for (const [name, bytes] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, 12))
      console.log(`| ${name} | ${kb(bytes)} | ${((100 * bytes) / total).toFixed(1)}% |`)

    const missing = TRACERS.filter((t) => !workerCode.includes(t))
    const pass = workerGzip <= WORKER_TARGET_GZIP && missing.length === 0
    console.log(
      `\nworker bundle: ${kb(workerGzip)} KB gzipped, tracers ${missing.length === 0 ? 'all present' : `missing ${missing.join(', ')}`} (target: at most ${WORKER_TARGET_GZIP / 1024} KB gzipped with every tracer) — ${pass ? 'PASS' : 'FAIL'}`,
    )
  } finally {
    rmSync(raw, { recursive: true, force: true })
    rmSync(pages, { recursive: true, force: true })
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
