// The Node entry points as one file each (part of `npm run build`, after tsc), for a quick start:
//   dist/node/workers/rangeWorker.bundle.js    — a range worker (trace_filter stretches, heavy calls)
//   dist/node/workers/jsTracerWorker.bundle.js — a JavaScript-tracer thread (its realm hardened first)
//   dist/node/cli.bundle.js                    — the `edgetrace` command (bin/edgetrace.js runs it)
// A worker's bundle holds its whole module graph, npm dependencies included (esbuild keeps the
// modules' order of evaluation, so a tracer thread's realm is still hardened before any other module
// runs): a thread started from one reads and compiles one file instead of resolving ~500 modules, on
// about a fifth of the CPU (bench/workers.ts) — what a JavaScript tracer's replacement thread and
// every range pool pays at start. The CLI's bundle holds edgetrace's own modules and imports its npm
// dependencies as they are installed (BullMQ reads its scripts beside its own files; piscina starts
// threads from its own): it starts on about two thirds of the CPU of tsc's per-file dist/node/cli.js.
// createRangeWorkers takes a worker's bundle when it is there, else tsc's per-file script, and finds
// them from the CLI's bundle too. The test suite bundles from the sources the same way
// (test/setup/compileSources.ts). Run directly: `tsx scripts/bundleNode.ts [--out DIR]` (DIR: dist/node).
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type BuildOptions, build } from 'esbuild'
import { argFlag } from './argFlag.js'

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))

/** The worker scripts, by name: what createRangeWorkers starts (src/node/workers/<name>.ts). */
export const NODE_WORKERS = ['rangeWorker', 'jsTracerWorker'] as const

const COMMON: BuildOptions = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // CommonJS dependencies bundled into an ES module still call require() for Node's own modules.
  banner: {
    js: "import { createRequire as __edgetraceRequire } from 'node:module';const require = __edgetraceRequire(import.meta.url);",
  },
  legalComments: 'linked',
  logLevel: 'warning',
}

/**
 * Bundles each of NODE_WORKERS (from the sources) into `<outDir>/workers/<name>.bundle.js` and the
 * CLI into `<outDir>/cli.bundle.js`; `outDir` is dist/node, or the test suite's compiled copy of it.
 */
export async function bundleNode({ outDir }: { outDir: string }): Promise<string[]> {
  const workers = NODE_WORKERS.map((name) => ({
    entry: resolve(ROOT, `src/node/workers/${name}.ts`),
    outfile: resolve(outDir, `workers/${name}.bundle.js`),
    external: false,
  }))
  const cli = { entry: resolve(ROOT, 'src/node/cli.ts'), outfile: resolve(outDir, 'cli.bundle.js'), external: true }
  const all = [...workers, cli]
  await Promise.all(
    all.map(({ entry, outfile, external }) =>
      build({ ...COMMON, entryPoints: [entry], outfile, ...(external ? { packages: 'external' } : {}) }),
    ),
  )
  return all.map((b) => b.outfile)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = resolve(argFlag('out') ?? resolve(ROOT, 'dist/node'))
  const files = await bundleNode({ outDir })
  console.log(`bundled ${files.map((f) => f.replace(`${ROOT}/`, '')).join(', ')}`)
}
