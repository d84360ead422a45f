import { copyFileSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { build } from 'esbuild'
import { bundleNode } from '../../scripts/bundleNode.js'

/** The project's root. */
const ROOT = resolve(import.meta.dirname, '../..')
/** What is compiled: the product and the fixture node, without their tests. */
const TREES = ['src', 'tools']

/** The environment variable naming this run's compiled copy (read by test/src/cliCommand.ts and createRangeWorkers). */
export const COMPILED_SOURCES_ENV = 'EDGETRACE_COMPILED_SOURCES'

/**
 * The node project's global setup: src/ and tools/ transformed to JavaScript once per run (esbuild,
 * file by file as tsx does, in about half a second), into node_modules/.cache. The CLIs the tests spawn
 * and the worker threads their servers start run from that copy, as the published package runs from
 * dist/, instead of through tsx: a CLI then starts in 0.6 s instead of 1.4 s (a third of the CPU),
 * and a worker thread from a one-file bundle (scripts/bundleNode.ts) on a fifth of it. The tests'
 * own imports still go through vitest.
 */
export default async function setup(): Promise<() => void> {
  const out = join(ROOT, 'node_modules/.cache/edgetrace-compiled', String(process.pid))
  rmSync(out, { recursive: true, force: true })
  const entryPoints: string[] = []
  for (const tree of TREES)
    for (const file of readdirSync(join(ROOT, tree), { recursive: true, encoding: 'utf8' })) {
      const path = join(tree, file)
      if (path.endsWith('.test.ts')) continue
      if (path.endsWith('.ts')) entryPoints.push(path)
      else if (path.endsWith('.json')) {
        // Imported with `with { type: 'json' }`, which a file-by-file transform leaves as it is.
        mkdirSync(dirname(join(out, path)), { recursive: true })
        copyFileSync(join(ROOT, path), join(out, path))
      }
    }
  await build({
    entryPoints,
    absWorkingDir: ROOT,
    outbase: ROOT,
    outdir: out,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Kept as written: Node 20 reads `import … with { type: 'json' }`, which esbuild drops for node20.
    supported: { 'import-attributes': true },
    sourcemap: 'inline',
    logLevel: 'warning',
  })
  // The one-file bundles of the worker threads and the CLI, as `npm run build` makes them for dist/.
  await bundleNode({ outDir: join(out, 'src/node') })
  // The explorer's build, where the compiled CLI looks for it from source (src/node/explorerDir.ts).
  symlinkSync(join(ROOT, 'dist'), join(out, 'dist'))
  process.env[COMPILED_SOURCES_ENV] = out
  return () => {
    delete process.env[COMPILED_SOURCES_ENV]
    rmSync(out, { recursive: true, force: true })
  }
}
