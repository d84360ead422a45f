// The Node worker threads' scripts as one file each (part of `npm run build`, after tsc):
//   dist/node/workers/rangeWorker.bundle.js    — a range worker (trace_filter stretches, heavy calls)
//   dist/node/workers/jsTracerWorker.bundle.js — a JavaScript-tracer thread (its realm hardened first)
// Each holds its whole module graph, npm dependencies included (esbuild keeps the modules' order of
// evaluation, so the tracer thread's realm is still hardened before any other module runs). A thread
// started from one reads and compiles one file instead of resolving ~500 modules: about a sixth of
// the CPU (bench/workers.ts), which a JavaScript tracer's replacement thread and every range pool
// pays at start. createRangeWorkers takes the bundle when it is there, else tsc's per-file script.
// The test suite bundles its compiled copy of the sources the same way (test/setup/compileSources.ts).
// Run directly: `tsx scripts/bundleNodeWorkers.ts [--out DIR]` (from src/node/workers).
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { argFlag } from './argFlag.js'

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))

/** The worker scripts, by name: what createRangeWorkers starts. */
export const NODE_WORKERS = ['rangeWorker', 'jsTracerWorker'] as const

/**
 * Bundles each of NODE_WORKERS from `fromDir` (holding `<name>.ts` or `<name>.js`) into
 * `<outDir>/<name>.bundle.js`, with a source map beside it when `sourcemap`.
 */
export async function bundleNodeWorkers({
  fromDir,
  outDir,
  extension,
  sourcemap = false,
}: {
  fromDir: string
  outDir: string
  extension: 'ts' | 'js'
  sourcemap?: boolean
}): Promise<string[]> {
  const files = NODE_WORKERS.map((name) => resolve(outDir, `${name}.bundle.js`))
  await Promise.all(
    NODE_WORKERS.map((name, i) =>
      build({
        entryPoints: [resolve(fromDir, `${name}.${extension}`)],
        outfile: files[i]!,
        bundle: true,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        // CommonJS dependencies bundled into an ES module still call require() for Node's own modules.
        banner: {
          js: "import { createRequire as __edgetraceRequire } from 'node:module';const require = __edgetraceRequire(import.meta.url);",
        },
        sourcemap: sourcemap ? 'linked' : false,
        legalComments: 'linked',
        logLevel: 'warning',
      }),
    ),
  )
  return files
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = resolve(argFlag('out') ?? resolve(ROOT, 'dist/node/workers'))
  const files = await bundleNodeWorkers({ fromDir: resolve(ROOT, 'src/node/workers'), outDir, extension: 'ts' })
  console.log(`bundled ${files.map((f) => f.replace(`${ROOT}/`, '')).join(', ')}`)
}
