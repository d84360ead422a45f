// Builds the browser bench page (bench/browser/page.ts) the way an app would: Vite bundles it
// against the BUILT browser library (dist/browser/index.js, what 'edgetrace/browser' exports), not
// against src/. Used by bench/browser.ts (to serve it) and bench/bundle.ts (to size it).
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { build, type Plugin } from 'vite'
import { DEFAULT_OUT_DIR, ROOT } from '../../scripts/buildBrowser.js'
import { noNodeBuiltins } from '../../scripts/noNodeBuiltins.js'

const PAGE = resolve(ROOT, 'bench/browser/page.ts')
const SOURCE_LIBRARY = '../../src/browser/index.js'

/** The page's import of the library's source (for the type checker) → the built library file. */
function useBuiltLibrary(library: string): Plugin {
  return {
    name: 'edgetrace-bench:built-library',
    enforce: 'pre',
    resolveId(source, importer) {
      if (importer === PAGE && source === SOURCE_LIBRARY) return library
      return null
    },
  }
}

/**
 * Builds page.js into `outDir`; returns its path and the modules bundled into it (ids relative to
 * the root). `library`: the built library (default), or src/browser/index.ts to compare with.
 */
export async function buildBenchPage(
  outDir: string,
  library = resolve(DEFAULT_OUT_DIR, 'index.js'),
): Promise<{ file: string; modules: string[] }> {
  if (!existsSync(library)) throw new Error(`${library} is missing: run npm run build first`)
  const fromSources = library === resolve(ROOT, 'src/browser/index.ts')
  const output = await build({
    configFile: false,
    envDir: false,
    root: ROOT,
    publicDir: false,
    mode: 'production',
    logLevel: 'silent',
    plugins: [useBuiltLibrary(library), noNodeBuiltins({ root: ROOT })],
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir,
      emptyOutDir: false,
      copyPublicDir: false,
      minify: true,
      reportCompressedSize: false,
      lib: { entry: PAGE, formats: ['es'], fileName: () => 'page.js' },
      rolldownOptions: { output: { minify: true } },
    },
  })
  const outputs = Array.isArray(output) ? output : [output]
  const modules: string[] = []
  for (const o of outputs) {
    if (!('output' in o)) continue
    for (const chunk of o.output)
      if (chunk.type === 'chunk')
        modules.push(...Object.keys(chunk.modules).map((id) => (id.startsWith(ROOT) ? id.slice(ROOT.length + 1) : id)))
  }
  // The page must have been built from the library's bundle, never from its sources.
  const fromSource = modules.filter((m) => m.startsWith('src/'))
  if (!fromSources && fromSource.length > 0)
    throw new Error(`the bench page bundled edgetrace sources instead of ${library}: ${fromSource.join(', ')}`)
  return { file: resolve(outDir, 'page.js'), modules }
}
