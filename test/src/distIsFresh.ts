import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '../..')

/** What `npm run build` reads: when one is newer than the build's outputs, the project's dist/ is stale. */
const BUILD_INPUTS = ['src', 'worker', 'demo', 'index.html', 'scripts', 'vite.config.ts', 'tsconfig.build.json']
/** One output of each build step (tsc, scripts/bundleNodeWorkers.ts, scripts/buildBrowser.ts, vite build of the explorer). */
export const BUILD_OUTPUTS = [
  'dist/node/index.js',
  'dist/node/cli.js',
  'dist/node/cli.bundle.js',
  'dist/node/workers/rangeWorker.bundle.js',
  'dist/node/workers/jsTracerWorker.bundle.js',
  'dist/browser/index.js',
  'dist/browser/edgetrace.browser.js',
  'dist/browser/edgetrace.worker.js',
  'dist/browser/edgetrace.sw.js',
  'dist/explorer/index.html',
]

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = 0
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue
    newest = Math.max(newest, newestMtime(join(path, entry)))
  }
  return newest
}

/**
 * Whether the project's dist/ is what `npm run build` would write now: every step's output there and
 * none older than a source it is built from. True on a fresh clone after `npm ci` (its `prepare` builds).
 */
export function distIsFresh(root = ROOT): boolean {
  const outputs = BUILD_OUTPUTS.map((file) => join(root, file))
  if (!outputs.every((file) => existsSync(file))) return false
  const oldestOutput = Math.min(...outputs.map((file) => statSync(file).mtimeMs))
  return BUILD_INPUTS.every((input) => newestMtime(join(root, input)) <= oldestOutput)
}
