// The browser half of `npm run build` (after tsc): minified bundles in dist/browser, built with
// Vite's JS build() API (rolldown), every graph checked for Node-only imports (scripts/noNodeBuiltins.ts).
//   dist/browser/edgetrace.worker.js — the dedicated Web Worker, one IIFE file: `new Worker(url)`
//   dist/browser/edgetrace.sw.js     — the service worker, one IIFE (classic) file:
//                                      `navigator.serviceWorker.register(url)`
//   dist/browser/edgetrace.browser.js — the browser library as one self-contained ES module, its npm
//                                      dependencies inside (for pages without a bundler: one <script
//                                      type="module"> import). Apps with a bundler import
//                                      'edgetrace/browser': tsc's per-file dist/browser/index.js, which
//                                      tree-shakes down to what they use.
// Run directly: `tsx scripts/buildBrowser.ts [--out DIR]`.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { noNodeBuiltins } from './noNodeBuiltins.js'

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))

export type BrowserBundle = {
  /** Entry module, relative to the project root or absolute. */
  entry: string
  /** Output file name inside outDir. */
  fileName: string
  /** 'iife': one classic script with everything in it; 'es': one ES module. */
  format: 'iife' | 'es'
  /** Keep the package.json dependencies as imports (library builds), instead of bundling them. */
  externalDependencies?: boolean
}

export const BROWSER_BUNDLES = {
  worker: { entry: 'worker/edgetrace.worker.ts', fileName: 'edgetrace.worker.js', format: 'iife' },
  serviceWorker: { entry: 'worker/edgetrace.sw.ts', fileName: 'edgetrace.sw.js', format: 'iife' },
  library: {
    entry: 'src/browser/index.ts',
    fileName: 'edgetrace.browser.js',
    format: 'es',
  },
} as const satisfies Record<string, BrowserBundle>

export type BrowserBundleName = keyof typeof BROWSER_BUNDLES

export const DEFAULT_OUT_DIR = resolve(ROOT, 'dist/browser')

/** npm dependencies a library build keeps as imports; Node-only ones (ws) never: the plugin refuses them. */
function dependencyNames(): string[] {
  const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>
  }
  return Object.keys(pkg.dependencies ?? {}).filter((name) => name !== 'ws')
}

export type BuiltBundle = {
  file: string
  /** The modules in it (ids relative to the project root), with their rendered size before minification. */
  modules: { id: string; renderedBytes: number }[]
}

/**
 * Builds one bundle into `outDir` (kept: other files there are left alone, so tsc's declarations
 * next to index.js stay). Rejects — naming importer and import — when the graph reaches a Node
 * built-in or `ws`.
 */
export async function buildBrowserBundle(
  bundle: BrowserBundle,
  opts: { outDir: string; minify?: boolean; sourcemap?: boolean; quiet?: boolean },
): Promise<BuiltBundle> {
  const deps = bundle.externalDependencies ? dependencyNames() : []
  const external = (id: string) => deps.some((d) => id === d || id.startsWith(`${d}/`))
  const output = await build({
    configFile: false, // not vite.config.ts (the demo and the tests)
    envDir: false,
    root: ROOT,
    publicDir: false,
    mode: 'production',
    logLevel: opts.quiet ? 'silent' : 'warn',
    plugins: [noNodeBuiltins({ root: ROOT })],
    // Bundled packages may test process.env.NODE_ENV; a browser has no `process`.
    define: bundle.externalDependencies ? {} : { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir: opts.outDir,
      emptyOutDir: false,
      copyPublicDir: false,
      minify: opts.minify ?? true,
      sourcemap: opts.sourcemap ?? true,
      reportCompressedSize: false,
      lib: {
        entry: resolve(ROOT, bundle.entry),
        formats: [bundle.format],
        // IIFE needs a global name; the worker entries export nothing, so it stays undefined.
        name: 'edgetrace',
        fileName: () => bundle.fileName,
      },
      rolldownOptions: {
        external: deps.length > 0 ? external : [],
        output: {
          // Vite leaves whitespace in ES library builds; this one is minified like the others.
          ...(opts.minify === false ? {} : { minify: true }),
          // The sources are ES modules, strict throughout; a classic script (the IIFE workers, as
          // `new Worker(url)` starts them) is strict only if it says so. SES, which hardens the
          // JavaScript tracers' realm, refuses to start in sloppy mode (SES_NO_SLOPPY).
          ...(bundle.format === 'iife' ? { strict: true } : {}),
        },
      },
    },
  })
  const modules: BuiltBundle['modules'] = []
  for (const o of Array.isArray(output) ? output : [output]) {
    if (!('output' in o)) continue
    for (const chunk of o.output) {
      if (chunk.type !== 'chunk') continue
      for (const [id, m] of Object.entries(chunk.modules))
        modules.push({
          id: id.startsWith(`${ROOT}/`) ? id.slice(ROOT.length + 1) : id,
          renderedBytes: m.renderedLength,
        })
    }
  }
  return { file: resolve(opts.outDir, bundle.fileName), modules }
}

/** Builds every browser bundle (or the named ones) into `outDir`; returns the files written. */
export async function buildBrowser(
  opts: { outDir?: string; only?: BrowserBundleName[]; quiet?: boolean; sourcemap?: boolean } = {},
): Promise<Record<BrowserBundleName, string>> {
  const outDir = opts.outDir ?? DEFAULT_OUT_DIR
  const names = opts.only ?? (Object.keys(BROWSER_BUNDLES) as BrowserBundleName[])
  const files = {} as Record<BrowserBundleName, string>
  for (const name of names)
    files[name] = (
      await buildBrowserBundle(BROWSER_BUNDLES[name], {
        outDir,
        quiet: opts.quiet ?? false,
        sourcemap: opts.sourcemap ?? true,
      })
    ).file
  // The wasm EVM (`npm run build:wasm`) beside the workers: their default config.wasmUrl. Fetched
  // only by an `engine: 'wasm'` run, so none of the JavaScript bundles carries it.
  const wasm = resolve(ROOT, 'dist/wasm/evm.wasm')
  if (names.some((name) => name !== 'library') && existsSync(wasm)) {
    mkdirSync(outDir, { recursive: true })
    copyFileSync(wasm, resolve(outDir, WASM_EVM_FILE))
  }
  return files
}

/** The wasm EVM's file name beside the browser bundles (src/browser/fetchWasmEvmModule.ts's default). */
export const WASM_EVM_FILE = 'edgetrace-evm.wasm'

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outAt = process.argv.indexOf('--out')
  const outDir = outAt > 0 ? resolve(process.argv[outAt + 1]!) : DEFAULT_OUT_DIR
  const started = performance.now()
  buildBrowser({ outDir }).then(
    (files) => {
      for (const [name, file] of Object.entries(files)) console.log(`${name.padEnd(14)} ${file}`)
      console.log(`browser bundles built in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    },
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err)
      process.exit(1)
    },
  )
}
